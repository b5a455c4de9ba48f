import type { LoggerService } from '@nestjs/common';
import type { Logger } from '@hearth/telemetry';

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/**
 * Nest's logger, routed to pino. Nest passes the context (a class name) as the
 * last string argument and, for errors, a stack before it. Nest's own `log` lines
 * (modules loaded, routes mapped) go to debug: the host logs its own start lines.
 */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly logger: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }
  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }
  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }
  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }
  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    const rest = [...params];
    const context = rest.length > 0 && typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const fields: Record<string, unknown> = { nest: context };
    if (level === 'error' || level === 'fatal') {
      const stack = rest.find((p) => typeof p === 'string');
      if (stack) fields.stack = stack;
    }
    if (message instanceof Error) {
      this.logger[level]({ ...fields, err: message }, message.message);
    } else if (typeof message === 'object' && message !== null) {
      this.logger[level]({ ...fields, ...message }, 'nest');
    } else {
      this.logger[level](fields, String(message));
    }
  }
}
