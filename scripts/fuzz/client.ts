// The fuzzer's own calls (setup and checks, not generated requests): each is
// counted and checked like any other, and setup steps fail loudly.
import { randomUUID } from 'node:crypto';
import { bearer, describeResponse, jsonAuth, send, type HttpRequest, type HttpResponse } from './http.js';
import type { Phase, Recorder } from './recorder.js';
import { newUser, type FuzzUser } from './world.js';

export const CHAT_ROUTE = 'POST /v1/conversations/{conversation_id}/messages';

/** The body of an answer as an object (empty when it is not JSON). */
export function bodyOf(res: HttpResponse): Record<string, unknown> {
  return (res.json ?? {}) as Record<string, unknown>;
}

export class FuzzClient {
  constructor(
    readonly url: string,
    private readonly rec: Recorder,
    private readonly phase: Phase = 'setup',
  ) {}

  /** The same server, counted under another phase. */
  in(phase: Phase): FuzzClient {
    return new FuzzClient(this.url, this.rec, phase);
  }

  async call(route: string, req: HttpRequest): Promise<HttpResponse> {
    const res = await send(this.url, req);
    this.rec.record(this.phase, this.url, route, req, res);
    return res;
  }

  get(u: FuzzUser, route: string, path: string): Promise<HttpResponse> {
    return this.call(route, { method: 'GET', path, headers: bearer(u.token) });
  }

  /** A dev token for a new user (or for `userId`), optionally an admin. */
  async mint(label: string, opts: { admin?: boolean; userId?: string } = {}): Promise<FuzzUser> {
    const body = JSON.stringify({ ...(opts.userId ? { user_id: opts.userId } : {}), ...(opts.admin ? { roles: ['admin'] } : {}) });
    const r = await this.call('POST /v1/dev/token', { method: 'POST', path: '/v1/dev/token', headers: { 'content-type': 'application/json' }, body });
    if (r.status !== 200) throw new Error(`dev token answered ${describeResponse(r)}`);
    return newUser(label, bodyOf(r).user_id as string, bodyOf(r).token as string);
  }

  /** A fresh token for the user (a jump of the virtual clock expires the last). */
  async refresh(u: FuzzUser): Promise<void> {
    u.token = (await this.mint(u.label, { userId: u.id })).token;
  }

  /** One chat message; the user learns its ids. */
  async say(u: FuzzUser, conversation: string, text: string): Promise<HttpResponse> {
    const messageId = randomUUID();
    const req = { method: 'POST', path: `/v1/conversations/${conversation}/messages`, headers: jsonAuth(u.token), body: JSON.stringify({ message_id: messageId, text }) };
    const r = await this.call(CHAT_ROUTE, req);
    if (r.status !== 200) throw new Error(`${u.label} could not chat: ${describeResponse(r)}`);
    if (!u.conversations.includes(conversation)) u.conversations.push(conversation);
    u.messageIds.push(messageId);
    u.replyIds.push((bodyOf(r).assistant as { message_id: string }).message_id);
    return r;
  }

  async onboard(u: FuzzUser, answers: Record<string, unknown> = {}): Promise<void> {
    await this.call('POST /v1/me', { method: 'POST', path: '/v1/me', headers: bearer(u.token) });
    const body = {
      preferred_name: u.label,
      age_band: '25-34',
      country_or_region: 'KR',
      occupation_category: 'working',
      client_timezone: 'America/New_York',
      proactive_messages_enabled: false,
      suppressed_topics: [],
      ...answers,
    };
    const r = await this.call('PUT /v1/me/onboarding', { method: 'PUT', path: '/v1/me/onboarding', headers: jsonAuth(u.token), body: JSON.stringify(body) });
    if (r.status !== 200) throw new Error(`${u.label} could not onboard: ${describeResponse(r)}`);
  }

  /** Moves the virtual clock (any valid token may; a fresh one, as the last jump may have expired the others). */
  async advance(seconds: number): Promise<void> {
    const { token } = await this.mint('clock');
    const r = await this.call('POST /v1/dev/clock', { method: 'POST', path: '/v1/dev/clock', headers: jsonAuth(token), body: JSON.stringify({ advance_seconds: seconds }) });
    if (r.status !== 200) throw new Error(`the clock answered ${describeResponse(r)}`);
  }
}

/** Calls `get` until `done` holds of its answer or `timeoutMs` passes; the last answer. */
export async function until(get: () => Promise<HttpResponse>, done: (r: HttpResponse) => boolean, timeoutMs = 15_000): Promise<HttpResponse> {
  const deadline = Date.now() + timeoutMs;
  let r = await get();
  while (!done(r) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    r = await get();
  }
  return r;
}

/** Runs `fn` over `items` with at most `limit` at once. */
export async function pool<T>(items: Iterable<T>, limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  const it = items[Symbol.iterator]();
  const lane = async (): Promise<void> => {
    for (let n = it.next(); !n.done; n = it.next()) await fn(n.value);
  };
  await Promise.all(Array.from({ length: limit }, lane));
}
