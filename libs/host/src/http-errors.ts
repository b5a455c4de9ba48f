import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter, type HttpServer } from '@nestjs/common';
import { isTransientError } from '@hearth/bus';
import type { Logger } from '@hearth/telemetry';

/** What a client is told to wait before retrying while a dependency is away (a Postgres restart, a NATS failover). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 2;

/** The body of every HTTP error (API.md): `{"error": {"code", "message", "details"}}`. */
export interface ApiErrorBody {
  error: { code: string; message: string; details?: unknown };
}

/** An HTTP error in the API's shape, e.g. `new ApiHttpException(409, 'MESSAGE_CONFLICT', '...')`. */
export class ApiHttpException extends HttpException {
  constructor(status: number, code: string, message: string, details?: unknown) {
    const body: ApiErrorBody = { error: details === undefined ? { code, message } : { code, message, details } };
    super(body, status);
  }
}

const CODE_BY_STATUS: Record<number, string> = {
  400: 'BAD_REQUEST',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'INVALID_FIELDS',
  429: 'RATE_LIMITED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
};

function isApiErrorBody(body: unknown): body is ApiErrorBody {
  if (typeof body !== 'object' || body === null || !('error' in body)) return false;
  const e = (body as { error: unknown }).error;
  return typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string';
}

/** Maps an exception to a status and an API error body. */
export function toApiError(exception: unknown): { status: number; body: ApiErrorBody } {
  if (!(exception instanceof HttpException)) {
    if (isTransientError(exception)) {
      return {
        status: 503,
        body: {
          error: {
            code: 'UNAVAILABLE',
            message: 'a dependency is briefly unavailable; retry the same request shortly',
            details: { retry_after_seconds: UNAVAILABLE_RETRY_AFTER_SECONDS },
          },
        },
      };
    }
    return { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } };
  }
  const status = exception.getStatus();
  const response = exception.getResponse();
  if (isApiErrorBody(response)) return { status, body: response };
  const code = CODE_BY_STATUS[status] ?? `HTTP_${status}`;
  const raw = typeof response === 'object' && response !== null ? (response as { message?: unknown }).message : response;
  if (Array.isArray(raw)) {
    return { status, body: { error: { code, message: raw.map(String).join('; '), details: { messages: raw } } } };
  }
  return { status, body: { error: { code, message: typeof raw === 'string' ? raw : exception.message } } };
}

/**
 * Answers every error of every service's HTTP surface in the API's shape: Nest's
 * own exceptions (404 of unknown routes, 413 from the body limit) and anything
 * thrown by a controller (an unexpected error is a logged 500 that reveals nothing).
 */
@Catch()
export class ApiErrorFilter implements ExceptionFilter {
  constructor(
    private readonly adapter: Pick<HttpServer, 'reply' | 'setHeader'>,
    private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const { status, body } = toApiError(exception);
    if (status === 503 && !(exception instanceof HttpException)) {
      this.logger.warn({ err: String(exception) }, 'dependency unavailable; answered 503');
    } else if (status >= 500 && !(exception instanceof HttpException)) {
      this.logger.error({ err: exception }, 'unhandled error in an HTTP handler');
    }
    const response = host.switchToHttp().getResponse<unknown>();
    const retryAfter = retryAfterOf(status, body);
    if (retryAfter !== undefined) this.adapter.setHeader(response, 'Retry-After', String(retryAfter));
    this.adapter.reply(response, body, status);
  }
}

/** 429 and 503 tell the client when to come back: `details.retry_after_seconds`, or a default for 503. */
function retryAfterOf(status: number, body: ApiErrorBody): number | undefined {
  if (status !== 429 && status !== 503) return undefined;
  const details = body.error.details as { retry_after_seconds?: unknown } | undefined;
  const s = details?.retry_after_seconds;
  if (typeof s === 'number' && Number.isFinite(s) && s >= 0) return Math.ceil(s);
  return status === 503 ? UNAVAILABLE_RETRY_AFTER_SECONDS : undefined;
}
