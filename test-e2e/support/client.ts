import { randomUUID } from 'node:crypto';

export interface Reply<T = any> {
  status: number;
  body: T;
}

/** A thin client of the Hearth HTTP API (../shared/API.md) for tests. */
export class HearthClient {
  constructor(
    readonly url: string,
    readonly token?: string,
    readonly userId?: string,
  ) {}

  async call<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply<T>> {
    const res = await fetch(`${this.url}${path}`, {
      method,
      signal: AbortSignal.timeout(40_000),
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text().catch((err: unknown) => {
      throw new Error(`${method} ${path}: ${String(err)}`, { cause: err });
    });
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON (e.g. /metrics)
    }
    return { status: res.status, body: parsed as T };
  }

  /** A client for a new user (dev token), optionally an admin. */
  async as(opts: { admin?: boolean; userId?: string } = {}): Promise<HearthClient> {
    const r = await this.call('POST', '/v1/dev/token', { ...(opts.userId ? { user_id: opts.userId } : {}), ...(opts.admin ? { roles: ['admin'] } : {}) });
    if (r.status !== 200) throw new Error(`dev token: ${r.status} ${JSON.stringify(r.body)}`);
    return new HearthClient(this.url, r.body.token, r.body.user_id);
  }

  /** GET /v1/dev/clock, which needs a token: this client's, or a dev token minted for it. */
  async clock(): Promise<Reply<{ now: string }>> {
    return (await this.withToken()).call('GET', '/v1/dev/clock');
  }

  /** POST /v1/dev/clock `{advance_seconds}`, with this client's token or a dev token minted for it. */
  async advanceClock(seconds: number): Promise<Reply<{ now: string }>> {
    return (await this.withToken()).call('POST', '/v1/dev/clock', { advance_seconds: seconds });
  }

  /**
   * This client when it has a token; else one with a fresh dev token (fresh each
   * time: dev tokens expire on the virtual clock, which these calls move).
   */
  private withToken(): Promise<HearthClient> {
    return this.token ? Promise.resolve(this) : this.as();
  }

  say(conversationId: string, text: string, messageId: string = randomUUID()): Promise<Reply> {
    return this.call('POST', `/v1/conversations/${conversationId}/messages`, { message_id: messageId, text });
  }
}

export const ANSWERS = {
  preferred_name: 'Mina',
  age_band: '25-34',
  country_or_region: 'KR',
  occupation_category: 'working',
  client_timezone: 'Asia/Seoul',
  proactive_messages_enabled: true,
  suppressed_topics: ['POLITICS'],
};

/** Calls `get` until `done` holds of its answer (or 10 s pass) and returns the last answer. */
export async function settled(get: () => Promise<Reply>, done: (r: Reply) => boolean): Promise<Reply> {
  const deadline = Date.now() + 10_000;
  let r = await get();
  while (!done(r) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    r = await get();
  }
  return r;
}

/** A new user through onboarding, once the persona is assigned (a moment after the answers). */
export async function onboard(anon: HearthClient, answers: Partial<typeof ANSWERS> = {}): Promise<HearthClient> {
  const me = await anon.as();
  expect((await me.call('POST', '/v1/me')).status).toBe(200);
  const r = await me.call('PUT', '/v1/me/onboarding', { ...ANSWERS, ...answers });
  expect(r.status).toBe(200);
  const profile = await settled(
    () => me.call('GET', '/v1/me'),
    (x) => x.body.persona !== null,
  );
  expect(profile.body.persona).not.toBeNull();
  return me;
}

/** Sends a chat message and expects it answered (200). */
export async function sayOk(me: HearthClient, conversationId: string, text: string): Promise<Reply> {
  const r = await me.say(conversationId, text);
  expect(r.status).toBe(200);
  return r;
}

/**
 * The caller's memories once `done` holds of them (memory writes back moments
 * after the reply): ACTIVE ones, or every status with `all`.
 */
export async function memoriesWhen<M>(me: HearthClient, done: (ms: M[]) => boolean, all = false): Promise<M[]> {
  const r = await settled(
    () => me.call('GET', `/v1/me/memories${all ? '?status=all' : ''}`),
    (x) => x.status === 200 && done(x.body.memories as M[]),
  );
  expect(r.status).toBe(200);
  return r.body.memories as M[];
}
