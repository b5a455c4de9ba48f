import { setTimeout as sleep } from 'node:timers/promises';
import { ApiCallError, ApiClient } from '../../bench/lib/api-client.js';

/**
 * Real seconds between two tries of a request answered 429. The client does not
 * see Retry-After; the chat limit's windows (20 s burst, 60 s per minute) pass
 * within RATE_LIMIT_WAITS × this.
 */
const RATE_LIMIT_WAIT_MS = 2_000;
const RATE_LIMIT_WAITS = 40;

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
  /** Requests answered 429 and sent again after a wait. */
  rateLimited = 0;
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

  /**
   * One request; a non-200 (or no answer) is counted and rethrown as {@link ApiCallError}.
   * A 429 (a Hearth run with its rate limits on, e.g. --url) is waited out and
   * sent again, counted in `rateLimited`, up to {@link RATE_LIMIT_WAITS} times.
   */
  async call<T>(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<T> {
    for (let waits = 0; ; waits++) {
      this.requests++;
      try {
        return await this.client.call<T>(method, path, opts);
      } catch (err) {
        if (err instanceof ApiCallError && err.status === 429 && waits < RATE_LIMIT_WAITS) {
          this.rateLimited++;
          await sleep(RATE_LIMIT_WAIT_MS);
          continue;
        }
        const key = err instanceof ApiCallError ? `${method} ${routeOf(path)} → ${err.status || 'no response'} ${err.code}` : `${method} ${routeOf(path)} → ${String(err)}`;
        this.countError(key);
        throw err;
      }
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
