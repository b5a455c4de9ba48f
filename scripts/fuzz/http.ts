// One raw HTTP exchange of the fuzzer, and how to print it so a failure reproduces.

/** A request exactly as sent: the body is text (UTF-8 on the wire) or raw bytes. */
export interface HttpRequest {
  method: string;
  /** Path and query, e.g. `/v1/me/memories?status=all`. */
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

export interface HttpResponse {
  /** 0 when no response came (connection refused or reset, timeout). */
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  json: unknown;
  ms: number;
  /** Why no response came (status 0). */
  failure?: string;
}

/** How long one request may take; a chat turn waits up to its TURN_TIMEOUT_MS. */
export const REQUEST_TIMEOUT_MS = 45_000;

export async function send(base: string, req: HttpRequest, timeoutMs = REQUEST_TIMEOUT_MS): Promise<HttpResponse> {
  const t0 = performance.now();
  try {
    const res = await fetch(base + req.path, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    const text = await res.text();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    return { status: res.status, headers: res.headers, text, json, ms: performance.now() - t0 };
  } catch (err) {
    const cause = err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
    return { status: 0, headers: new Headers(), text: '', json: undefined, ms: performance.now() - t0, failure: `${String(err)}${cause}` };
  }
}

/** A bearer Authorization header. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** JSON request headers with a bearer token. */
export function jsonAuth(token: string): Record<string, string> {
  return { 'content-type': 'application/json', ...bearer(token) };
}

const SHOWN_BODY_CHARS = 400;

/** No control characters and no surrogates: text a shell argument carries as is. */
function isPlainText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x7f || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** What a body is, short enough for a report: its length and head, escaped (NUL, lone surrogates and all). */
export function describeBody(body: string | Uint8Array | undefined): string {
  if (body === undefined) return '(no body)';
  if (typeof body !== 'string') {
    const hex = Buffer.from(body.subarray(0, 64)).toString('hex');
    return `(${body.length} raw bytes, hex ${hex}${body.length > 64 ? '…' : ''})`;
  }
  const bytes = Buffer.byteLength(body);
  const head = JSON.stringify(body.length > SHOWN_BODY_CHARS ? body.slice(0, SHOWN_BODY_CHARS) : body);
  return body.length > SHOWN_BODY_CHARS ? `(${bytes} bytes) ${head}…` : head;
}

/**
 * A curl command for the request (a long or binary body is described instead),
 * with tokens shortened: the seed and index in the report regenerate the request itself.
 */
export function reproducer(base: string, req: HttpRequest): string {
  const headers = Object.entries(req.headers).map(([k, v]) => {
    const shown = k.toLowerCase() === 'authorization' && v.length > 60 ? `${v.slice(0, 40)}…${v.slice(-12)}` : v;
    return `-H ${shellQuote(`${k}: ${shown}`)}`;
  });
  const body =
    req.body === undefined
      ? ''
      : typeof req.body === 'string' && req.body.length <= SHOWN_BODY_CHARS && isPlainText(req.body)
        ? ` --data-raw ${shellQuote(req.body)}`
        : ` --data-binary <${describeBody(req.body)}>`;
  const path = req.path.length > 300 ? `${req.path.slice(0, 200)}…(${req.path.length} chars)` : req.path;
  return `curl -X ${req.method} ${shellQuote(base + path)} ${headers.join(' ')}${body}`.replace(/\s+$/, '');
}

/** The response, short: status, error code and message, or the head of the body. */
export function describeResponse(res: HttpResponse): string {
  if (res.status === 0) return `no response after ${Math.round(res.ms)} ms (${res.failure})`;
  const text = res.text.length > 300 ? `${res.text.slice(0, 300)}…` : res.text;
  return `${res.status} ${text}`;
}
