// Broken object-level authorization: pool users aim at the victims' conversations,
// messages, memories and notifications, and at admin routes without the role.
// Every attempt must be refused, and the victims' data must be as it was.
import fc from 'fast-check';
import { bearer, jsonAuth, send, type HttpRequest } from './http.js';
import { benignText } from './inputs.js';
import type { Generated } from './routes.js';
import { nth, type FuzzUser, type IdKind, type World } from './world.js';

interface Attack {
  route: string;
  /** Statuses that refuse it; a route the server does not serve may also answer 404. */
  accept: readonly number[];
  /** `fresh` is a new uuid (generated, so the attempt reproduces from its seed). */
  request(attacker: FuzzUser, victim: FuzzUser, pick: (kind: IdKind) => string, text: string, fresh: string): HttpRequest;
}

const REFUSED = [403, 404];
const CHAT = 'POST /v1/conversations/{conversation_id}/messages';

function adminRoute(route: string, path: (victim: FuzzUser, pick: (kind: IdKind) => string, fresh: string) => string): Attack {
  const method = route.split(' ')[0]!;
  return { route, accept: [403], request: (a, v, pick, _text, fresh) => ({ method, path: path(v, pick, fresh), headers: bearer(a.token) }) };
}

/** Each way a user may reach for another user's data, with the answers that refuse it. */
export const ATTACKS: Record<string, Attack> = {
  'read a victim conversation': {
    route: 'GET /v1/conversations/{conversation_id}/messages',
    accept: REFUSED,
    request: (a, _v, pick) => ({ method: 'GET', path: `/v1/conversations/${pick('conversations')}/messages?limit=200`, headers: bearer(a.token) }),
  },
  'post into a victim conversation': {
    route: CHAT,
    accept: REFUSED,
    request: (a, _v, pick, text, fresh) => ({
      method: 'POST',
      path: `/v1/conversations/${pick('conversations')}/messages`,
      headers: jsonAuth(a.token),
      body: JSON.stringify({ message_id: fresh, text }),
    }),
  },
  // A message_id is the victim's reply key: reusing it is a conflict at best, never the victim's reply.
  'reuse a victim message_id': {
    route: CHAT,
    accept: [...REFUSED, 409],
    request: (a, _v, pick, text, fresh) => ({
      method: 'POST',
      path: `/v1/conversations/${nth(a.conversations, 0) ?? fresh}/messages`,
      headers: jsonAuth(a.token),
      body: JSON.stringify({ message_id: pick('messageIds'), text }),
    }),
  },
  'reuse a victim message_id in its conversation': {
    route: CHAT,
    accept: [...REFUSED, 409],
    request: (a, _v, pick, text) => ({
      method: 'POST',
      path: `/v1/conversations/${pick('conversations')}/messages`,
      headers: jsonAuth(a.token),
      body: JSON.stringify({ message_id: pick('messageIds'), text }),
    }),
  },
  'forget a victim memory': {
    route: 'DELETE /v1/me/memories/{memory_id}',
    accept: REFUSED,
    request: (a, _v, pick) => ({ method: 'DELETE', path: `/v1/me/memories/${pick('memoryIds')}`, headers: bearer(a.token) }),
  },
  'open the app from a victim notification': {
    route: 'POST /v1/me/app-opens',
    accept: REFUSED,
    request: (a, _v, pick) => ({
      method: 'POST',
      path: '/v1/me/app-opens',
      headers: jsonAuth(a.token),
      body: JSON.stringify({ opened_notification_id: pick('notificationIds') }),
    }),
  },
  'admin timeline without the role': adminRoute('GET /v1/admin/users/{user_id}/timeline', (v) => `/v1/admin/users/${v.id}/timeline`),
  'admin retention without the role': adminRoute('GET /v1/admin/users/{user_id}/retention', (v) => `/v1/admin/users/${v.id}/retention`),
  'admin beliefs without the role': adminRoute('GET /v1/admin/users/{user_id}/beliefs', (v) => `/v1/admin/users/${v.id}/beliefs`),
  'admin uncertainties without the role': adminRoute('GET /v1/admin/users/{user_id}/uncertainties', (v) => `/v1/admin/users/${v.id}/uncertainties`),
  'admin trust without the role': adminRoute('GET /v1/admin/users/{user_id}/trust', (v) => `/v1/admin/users/${v.id}/trust`),
  'admin turn trail without the role': adminRoute('GET /v1/admin/turns/{message_id}', (_v, pick) => `/v1/admin/turns/${pick('messageIds')}`),
  'admin dead letters without the role': adminRoute('GET /v1/admin/dead-letters', () => '/v1/admin/dead-letters'),
  'admin redrive without the role': adminRoute('POST /v1/admin/dead-letters/{event_id}/redrive', (_v, _pick, fresh) => `/v1/admin/dead-letters/${fresh}/redrive`),
};

/** BOLA attempts, as requests of the fuzz: a pool user against a victim. */
export const attackArbitrary: fc.Arbitrary<Generated> = fc
  .record({ attack: fc.constantFrom(...Object.keys(ATTACKS)), actor: fc.nat(), victim: fc.nat(), id: fc.nat(), text: benignText.filter((t) => t.trim().length > 0), fresh: fc.uuid() })
  .map((d) => {
    const attack = ATTACKS[d.attack]!;
    return {
      route: attack.route,
      actors: 'pool' as const,
      actor: d.actor,
      build(w: World, attacker: FuzzUser) {
        const victim = nth(w.victims, d.victim)!;
        // A victim without a proactive message is aimed at with its reply ids.
        const pick = (kind: IdKind) => nth(victim[kind], d.id) ?? nth(victim.replyIds, d.id) ?? d.fresh;
        return { req: attack.request(attacker, victim, pick, d.text, d.fresh), bola: { attack: d.attack, victim: victim.label, accept: attack.accept } };
      },
    };
  });

/** What a user's data looks like through the API, part by part (JSON text). */
export type Snapshot = Record<string, string>;

/**
 * The victim's profile, controls, memories (every status), every conversation and
 * its timeline (retention's own time-driven events left out: the clock moves; and
 * the admin reads of it, which each snapshot adds to).
 */
export async function snapshot(base: string, victim: FuzzUser, admin: FuzzUser): Promise<Snapshot> {
  const get = async (path: string, token: string): Promise<string> => {
    const r = await send(base, { method: 'GET', path, headers: bearer(token) });
    return `${r.status} ${r.text}`;
  };
  const out: Snapshot = {
    profile: await get('/v1/me', victim.token),
    controls: await get('/v1/me/controls', victim.token),
    memories: await get('/v1/me/memories?status=all', victim.token),
  };
  for (const c of victim.conversations) out[`conversation ${c}`] = await get(`/v1/conversations/${c}/messages?limit=200`, victim.token);
  const t = await send(base, { method: 'GET', path: `/v1/admin/users/${victim.id}/timeline`, headers: bearer(admin.token) });
  const events = (t.json as { events?: { type: string; event_id: string; service: string }[] } | undefined)?.events;
  // The admin's own reads are recorded on the victim (AdminAccessed): this snapshot adds one each time.
  const moved = (e: { type: string; service: string }) => e.service === 'retention' || e.type === 'hearth.ingress.v1.AdminAccessed';
  out.timeline = events ? events.filter((e) => !moved(e)).map((e) => `${e.type} ${e.event_id}`).join('\n') : `${t.status} ${t.text}`;
  return out;
}

/** The parts of `after` that differ from `before`. */
export function changedParts(before: Snapshot, after: Snapshot): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => before[k] !== after[k]);
}

/** A snapshot once the victim's data has stopped moving (its own last turn may still be settling): two equal in a row. */
export async function settledSnapshot(base: string, victim: FuzzUser, admin: FuzzUser, timeoutMs = 15_000): Promise<Snapshot> {
  const deadline = Date.now() + timeoutMs;
  let last = await snapshot(base, victim, admin);
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    const next = await snapshot(base, victim, admin);
    if (changedParts(last, next).length === 0 || Date.now() > deadline) return next;
    last = next;
  }
}
