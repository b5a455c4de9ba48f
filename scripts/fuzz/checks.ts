// The checks around the generated requests: forged tokens, a production-mode
// Hearth's dev routes and rate limits, the victims' data, and every touched user
// chatting afterwards. Each finding goes to the recorder as a violation.
import { randomUUID } from 'node:crypto';
import { changedParts, settledSnapshot, type Snapshot } from './bola.js';
import { bodyOf, CHAT_ROUTE, pool, type FuzzClient } from './client.js';
import { controlTokens, forgeries, validToken, type TokenTarget } from './forged.js';
import { bearer, describeResponse, jsonAuth, reproducer, type HttpRequest } from './http.js';
import { isRouterMiss, type Recorder } from './recorder.js';
import type { FuzzUser, World } from './world.js';

/** Rate limits a target runs with (the dedicated burst check; the fuzz itself runs without). */
export interface RateLimits {
  perMinute: number;
  chatPerMinute: number;
  chatBurst: number;
}

export interface ForgedTally {
  tokens: number;
  attempts: number;
  refused: number;
}

/** The routes each forged token is tried on: a user's reads and writes, and admin routes (the forgeries claim the admin role). */
function forgedRequests(sub: string): [string, HttpRequest][] {
  const json = { 'content-type': 'application/json' };
  return [
    ['POST /v1/me', { method: 'POST', path: '/v1/me', headers: {} }],
    ['GET /v1/me', { method: 'GET', path: '/v1/me', headers: {} }],
    ['GET /v1/me/memories', { method: 'GET', path: '/v1/me/memories', headers: {} }],
    [CHAT_ROUTE, { method: 'POST', path: `/v1/conversations/${randomUUID()}/messages`, headers: json, body: JSON.stringify({ message_id: randomUUID(), text: 'hello' }) }],
    ['PATCH /v1/me/controls', { method: 'PATCH', path: '/v1/me/controls', headers: json, body: '{"proactive_messages_enabled":true}' }],
    ['GET /v1/admin/users/{user_id}/timeline', { method: 'GET', path: `/v1/admin/users/${sub}/timeline`, headers: {} }],
    ['GET /v1/admin/dead-letters', { method: 'GET', path: '/v1/admin/dead-letters', headers: {} }],
  ];
}

/**
 * Every forgery on every route must be 401. The target's real tokens pass first
 * (the controls), or the 401s would prove nothing. The forgeries name `sub`, a
 * victim, so one that passed would show in the victim's data too.
 */
export async function checkForgedTokens(api: FuzzClient, rec: Recorder, name: string, target: TokenTarget, sub: string, tally: ForgedTally): Promise<void> {
  for (const control of controlTokens(target, randomUUID)) {
    const req = { method: 'POST', path: '/v1/me', headers: bearer(control.token) };
    const r = await api.call('POST /v1/me', req);
    if (r.status !== 200) rec.violation({ kind: 'control', key: `${name}: ${control.name} → ${r.status}`, request: reproducer(api.url, req), response: describeResponse(r) });
  }
  const list = forgeries(target, sub);
  tally.tokens += list.length;
  const jobs = list.flatMap((f) =>
    forgedRequests(sub).map(([route, req]) => ({ f, route, req: { ...req, headers: { ...req.headers, ...(f.authorization === undefined ? {} : { authorization: f.authorization }) } } })),
  );
  await pool(jobs, 8, async ({ f, route, req }) => {
    const r = await api.call(route, req);
    // A route the server does not serve yet has nothing to authenticate.
    if (isRouterMiss(r)) return;
    tally.attempts++;
    if (r.status === 401) tally.refused++;
    else rec.violation({ kind: 'forged token', key: `${name}: ${f.name} → ${r.status} on ${route}`, request: reproducer(api.url, req), response: describeResponse(r) });
  });
}

/** Production mode serves no dev route; with limits set, a burst over them answers 429 with Retry-After. */
export async function checkProduction(api: FuzzClient, rec: Recorder, target: TokenTarget, limits?: RateLimits): Promise<void> {
  const user = validToken(target, randomUUID());
  const devRoutes: [string, HttpRequest][] = [
    ['POST /v1/dev/token', { method: 'POST', path: '/v1/dev/token', headers: { 'content-type': 'application/json' }, body: '{"roles":["admin"]}' }],
    ['GET /v1/dev/clock', { method: 'GET', path: '/v1/dev/clock', headers: {} }],
    ['GET /v1/dev/clock', { method: 'GET', path: '/v1/dev/clock', headers: bearer(user) }],
    ['POST /v1/dev/clock', { method: 'POST', path: '/v1/dev/clock', headers: jsonAuth(user), body: '{"advance_seconds":86400}' }],
  ];
  for (const [route, req] of devRoutes) {
    const r = await api.call(route, req);
    if (r.status !== 404) rec.violation({ kind: 'production', key: `${route} answers ${r.status} in production (want 404)`, request: reproducer(api.url, req), response: describeResponse(r) });
  }
  if (!limits) return;

  const burst = async (label: string, route: string, n: number, token: string, make: () => HttpRequest) => {
    await api.call('POST /v1/me', { method: 'POST', path: '/v1/me', headers: bearer(token) });
    const answers = await Promise.all(
      Array.from({ length: n }, async () => {
        const req = make();
        return { req, res: await api.call(route, req) };
      }),
    );
    const limited = answers.filter((a) => a.res.status === 429);
    if (limited.length === 0) {
      const statuses = answers.map((a) => a.res.status).join(' ');
      rec.violation({ kind: 'rate limit', key: `${label}: no 429 in a burst of ${n}`, request: reproducer(api.url, answers[0]!.req), detail: `statuses: ${statuses}` });
    }
    const noRetry = limited.find((a) => !a.res.headers.get('retry-after'));
    if (noRetry) rec.violation({ kind: 'rate limit', key: `${label}: a 429 without Retry-After`, request: reproducer(api.url, noRetry.req), response: describeResponse(noRetry.res) });
  };
  const reader = validToken(target, randomUUID());
  await burst(`per user (${limits.perMinute}/min)`, 'GET /v1/me', limits.perMinute + 5, reader, () => ({ method: 'GET', path: '/v1/me', headers: bearer(reader) }));
  const chatter = validToken(target, randomUUID());
  const conversation = randomUUID();
  await burst(`chat (${limits.chatPerMinute}/min, burst ${limits.chatBurst})`, CHAT_ROUTE, limits.chatBurst + 3, chatter, () => ({
    method: 'POST',
    path: `/v1/conversations/${conversation}/messages`,
    headers: jsonAuth(chatter),
    body: JSON.stringify({ message_id: randomUUID(), text: 'hello' }),
  }));
}

/** Every victim's data as it was before the fuzz. */
export async function checkVictims(api: FuzzClient, rec: Recorder, world: World, before: Map<string, Snapshot>): Promise<void> {
  for (const v of world.victims) {
    const after = await settledSnapshot(api.url, v, world.admin);
    const was = before.get(v.id)!;
    for (const part of changedParts(was, after)) {
      rec.violation({ kind: 'victim changed', key: `${v.label} (${v.id}): ${part}`, detail: difference(was[part], after[part]) });
    }
  }
}

/** Every user chats once more: 200 with an assistant text (a refusal for one not onboarded is a text too). */
export async function checkChatAfter(api: FuzzClient, rec: Recorder, users: FuzzUser[]): Promise<number> {
  let ok = 0;
  await pool(users, 8, async (u) => {
    await api.refresh(u);
    await api.call('POST /v1/me', { method: 'POST', path: '/v1/me', headers: bearer(u.token) });
    const req: HttpRequest = {
      method: 'POST',
      path: `/v1/conversations/${randomUUID()}/messages`,
      headers: jsonAuth(u.token),
      body: JSON.stringify({ message_id: randomUUID(), text: 'hello again, how are you today?' }),
    };
    const r = await api.call(CHAT_ROUTE, req);
    const text = (bodyOf(r).assistant as { text?: unknown } | undefined)?.text;
    if (r.status === 200 && typeof text === 'string' && text.trim().length > 0) ok++;
    else rec.violation({ kind: 'chat after', key: `${u.label} cannot chat (${r.status})`, request: reproducer(api.url, req), response: describeResponse(r) });
  });
  return ok;
}

function clip(s: string | undefined, n = 600): string {
  if (s === undefined) return '(absent)';
  return s.length > n ? `${s.slice(0, n)}…` : s;
}

/** Lines gone and lines new (a timeline), or both values whole (a JSON answer). */
function difference(before: string | undefined, after: string | undefined): string {
  const a = (before ?? '').split('\n');
  const b = (after ?? '').split('\n');
  if (a.length === 1 && b.length === 1) return `before: ${clip(before)}\nafter:  ${clip(after)}`;
  return [...a.filter((l) => !b.includes(l)).map((l) => `- ${l}`), ...b.filter((l) => !a.includes(l)).map((l) => `+ ${l}`)].join('\n');
}
