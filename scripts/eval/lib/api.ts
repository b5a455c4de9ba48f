import { ApiCallError, ApiClient } from '../../bench/lib/api-client.js';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** A 200 whose body is not what the contract says (API.md). */
export class UnexpectedBodyError extends Error {
  override readonly name = 'UnexpectedBodyError';
  readonly code = 'UNEXPECTED_BODY' as const;
}

/**
 * The bench's API client, counting every request and every failure by route,
 * status and error code (ids replaced by `{id}`), so the report can say exactly
 * what failed and the exit code can depend on it.
 */
export class CountingApi {
  requests = 0;
  readonly errors = new Map<string, number>();
  private readonly client: ApiClient;

  constructor(readonly url: string) {
    this.client = new ApiClient(url);
  }

  get errorCount(): number {
    let n = 0;
    for (const v of this.errors.values()) n += v;
    return n;
  }

  /** One request; a non-200 (or no answer) is counted and rethrown as {@link ApiCallError}. */
  async call<T>(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<T> {
    this.requests++;
    try {
      return await this.client.call<T>(method, path, opts);
    } catch (err) {
      const key = err instanceof ApiCallError ? `${method} ${routeOf(path)} → ${err.status || 'no response'} ${err.code}` : `${method} ${routeOf(path)} → ${String(err)}`;
      this.countError(key);
      throw err;
    }
  }

  /** Counts a failure found after the request (a 200 with the wrong shape). */
  countError(key: string): void {
    this.errors.set(key, (this.errors.get(key) ?? 0) + 1);
  }
}

export function routeOf(path: string): string {
  return path.replace(UUID, '{id}');
}
