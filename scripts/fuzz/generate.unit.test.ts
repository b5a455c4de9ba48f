// The fuzz generator without a server: a seed names one sequence of requests, one
// index of it replays alone, and a CI-sized run reaches every route and hostile shape.
import { generate } from './engine.js';
import type { HttpRequest } from './http.js';
import { ROUTE_KEYS } from './routes.js';
import { newUser, nth, type FuzzUser, type World } from './world.js';

const LIMIT = 65_536;

function user(label: string, n: number): FuzzUser {
  const u = newUser(label, `00000000-0000-4000-8000-00000000000${n}`, `token-${label}`);
  u.conversations.push(`10000000-0000-4000-8000-00000000000${n}`);
  u.messageIds.push(`20000000-0000-4000-8000-00000000000${n}`);
  u.replyIds.push(`30000000-0000-4000-8000-00000000000${n}`);
  u.memoryIds.push(`40000000-0000-4000-8000-00000000000${n}`);
  return u;
}

const world: World = { pool: [user('pool-1', 1), user('pool-2', 2)], erasable: [user('erasable-1', 3)], victims: [user('victim-1', 4)], admin: user('admin', 5) };

function built(seed: number, count: number, only?: number[]): { index: number; route: string; req: HttpRequest; bola: boolean; kind?: string }[] {
  return [...generate(seed, count, LIMIT, only)].map(([index, g]) => {
    const b = g.build(world, nth(g.actors === 'erasable' ? world.erasable : world.pool, g.actor)!);
    return { index, route: g.route, req: b.req, bola: b.bola !== undefined, kind: b.kind };
  });
}

describe('the fuzz generator', () => {
  it('sends the same requests for the same seed, and others for another', () => {
    const a = built(42, 300);
    expect(built(42, 300)).toEqual(a);
    expect(built(43, 300)).not.toEqual(a);
  });

  it('replays one index alone exactly as it is in the whole sequence (`--only`)', () => {
    const all = built(7, 600);
    for (const i of [0, 199, 321, 599]) expect(built(7, i + 1, [i])).toEqual([all[i]]);
  });

  it('reaches every route of the table, BOLA attempts and every hostile body shape in 3,000 requests', () => {
    const sample = built(20_261_124, 3_000);
    const routes = new Set(sample.map((r) => r.route));
    expect(ROUTE_KEYS.filter((k) => !routes.has(k))).toEqual([]);
    expect(routes.has('(unknown route or method)')).toBe(true);
    expect(sample.filter((r) => r.bola).length).toBeGreaterThan(100);
    expect(new Set(sample.map((r) => r.kind))).toEqual(new Set(['json', 'nested', 'huge', 'malformed', 'not-object', 'bytes', 'empty', 'no body', undefined]));
    const bodies = sample.flatMap((r) => (typeof r.req.body === 'string' ? [r.req.body] : []));
    expect(bodies.some((b) => b.includes('\\u0000'))).toBe(true);
    expect(bodies.some((b) => /\\ud8[0-9a-f]{2}/i.test(b))).toBe(true);
    expect(bodies.some((b) => Buffer.byteLength(b) > LIMIT)).toBe(true);
  });
});
