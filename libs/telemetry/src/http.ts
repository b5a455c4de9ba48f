import { histogram } from './metrics.js';
import { HTTP_SERVER_REQUEST_DURATION } from './runtime.js';

/**
 * The semantic conventions' advice, up to 10 s, plus 15, 30 and 60 s: a chat turn
 * waits for its reply up to ingress's TURN_TIMEOUT_MS (30 s).
 */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10, 15, 30, 60];

const requestDuration = histogram(
  HTTP_SERVER_REQUEST_DURATION,
  'Duration of HTTP server requests, by method, route template and status code',
  's',
  { buckets: DURATION_BUCKETS },
);

/** Methods kept as they are; any other becomes `_OTHER`, so a scanner cannot invent label values. */
const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/** One answered HTTP request. */
export interface HttpServerRequest {
  method: string;
  /**
   * The route template that matched (`/v1/users/:id`), never the raw path: a path
   * holds user ids. Undefined when no route matched (a 404): the label is left out.
   */
  route: string | undefined;
  statusCode: number;
  seconds: number;
}

/** The attributes of one request, per the HTTP semantic conventions. */
export function httpServerAttributes(request: Omit<HttpServerRequest, 'seconds'>): Record<string, string | number> {
  const method = request.method.toUpperCase();
  return {
    'http.request.method': KNOWN_METHODS.has(method) ? method : '_OTHER',
    'http.response.status_code': request.statusCode,
    ...(request.route ? { 'http.route': request.route } : {}),
  };
}

/**
 * Records one request on `http.server.request.duration` (Prometheus
 * `http_server_request_duration_seconds_{bucket,sum,count}`): its count is the request
 * rate, its 5xx share the error rate.
 */
export function recordHttpServerRequest(request: HttpServerRequest): void {
  requestDuration.record(request.seconds, httpServerAttributes(request));
}
