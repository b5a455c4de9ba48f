import { Catch, HttpException, type ArgumentsHost, type ExceptionFilter, type HttpServer } from '@nestjs/common';
import type { Logger } from '@hearth/telemetry';

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
    private readonly adapter: Pick<HttpServer, 'reply'>,
    private readonly logger: Logger,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const { status, body } = toApiError(exception);
    if (status >= 500 && !(exception instanceof HttpException)) {
      this.logger.error({ err: exception }, 'unhandled error in an HTTP handler');
    }
    this.adapter.reply(host.switchToHttp().getResponse(), body, status);
  }
}
