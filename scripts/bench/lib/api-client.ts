import { randomUUID } from 'node:crypto';

/** How long any one request may take before the benchmark counts it as failed. */
export const REQUEST_TIMEOUT_MS = 60_000;

/** A request that did not get the status the benchmark expects. */
export class ApiCallError extends Error {
  override readonly name = 'ApiCallError';
  constructor(
    readonly method: string,
    readonly path: string,
    /** HTTP status, or 0 when no response arrived (timeout, refused connection). */
    readonly status: number,
    /** The API's error code, or what went wrong on the client side. */
    readonly code: string,
    options?: { cause?: unknown },
  ) {
    super(`${method} ${path}: ${status || 'no response'} ${code}`, options);
  }
}

/** A user ready to chat: onboarded and activated by a first message. */
export interface BenchUser {
  userId: string;
  token: string;
  conversationId: string;
}

/** Answers of PUT /v1/me/onboarding that pass validation (API.md, turn-pipeline §4.1.1). */
export const ONBOARDING_ANSWERS = {
  preferred_name: 'Bench',
  age_band: '25-34',
  country_or_region: 'KR',
  occupation_category: 'working',
  client_timezone: 'Asia/Seoul',
  proactive_messages_enabled: true,
  suppressed_topics: [],
} as const;

const TURN_TEXTS = [
  'hey, how was your day?',
  'I finally finished that report at work',
  'thinking about going hiking this weekend',
  'what should I cook tonight?',
  'long day, kind of tired',
] as const;

interface TurnReplyBody {
  user_state?: string;
  assistant?: { text?: string };
}

/**
 * The Hearth HTTP API as the benchmark uses it. Global fetch (undici) keeps
 * connections alive by default, so the workers reuse their sockets.
 */
export class ApiClient {
  constructor(private readonly baseUrl: string) {}

  async call<T>(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    let res: Response;
    try {
      res = await fetch(new URL(path, this.baseUrl), { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
    } catch (err) {
      const code = err instanceof Error && err.name === 'TimeoutError' ? 'CLIENT_TIMEOUT' : 'NETWORK_ERROR';
      throw new ApiCallError(method, path, 0, code, { cause: err });
    }
    const text = await res.text();
    if (res.status !== 200) throw new ApiCallError(method, path, res.status, errorCode(text));
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      throw new ApiCallError(method, path, res.status, 'INVALID_JSON', { cause: err });
    }
  }

  /** Dev token, user, onboarding, and the first message that makes the user ACTIVE. */
  async setupUser(): Promise<BenchUser & { state: string }> {
    const { token, user_id } = await this.call<{ token: string; user_id: string }>('POST', '/v1/dev/token', { body: {} });
    await this.call('POST', '/v1/me', { token, body: {} });
    await this.call('PUT', '/v1/me/onboarding', { token, body: ONBOARDING_ANSWERS });
    const user = { userId: user_id, token, conversationId: randomUUID() };
    const first = await this.sendTurn(user, 0);
    return { ...user, state: first.user_state ?? '' };
  }

  /** One chat turn: resolves with the 200 reply, or throws {@link ApiCallError}. */
  async sendTurn(user: BenchUser, n: number, messageId: string = randomUUID()): Promise<TurnReplyBody> {
    const path = `/v1/conversations/${user.conversationId}/messages`;
    const reply = await this.call<TurnReplyBody>('POST', path, {
      token: user.token,
      body: { message_id: messageId, text: TURN_TEXTS[n % TURN_TEXTS.length] },
    });
    if (!reply.assistant?.text) throw new ApiCallError('POST', path, 200, 'EMPTY_ASSISTANT_TEXT');
    return reply;
  }
}

function errorCode(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown } };
    if (typeof parsed.error?.code === 'string') return parsed.error.code;
  } catch {
    // not JSON: fall through
  }
  return 'HTTP_ERROR';
}
