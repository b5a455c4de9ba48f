// A fuzz run: users set up through the API, forged tokens, the generated requests
// (BOLA attempts among them), then the victims compared with before and every
// touched user chatting once more. No CLI or test runner here: `pnpm fuzz`
// (scripts/fuzz/run.ts) and test-e2e/fuzz.e2e.test.ts both call runFuzz.
import fc from 'fast-check';
import { attackArbitrary, settledSnapshot, type Snapshot } from './bola.js';
import { checkChatAfter, checkForgedTokens, checkProduction, checkVictims, type ForgedTally, type RateLimits } from './checks.js';
import { bodyOf, CHAT_ROUTE, FuzzClient, pool } from './client.js';
import { devTarget, type TokenTarget } from './forged.js';
import { bearer, describeResponse, reproducer, send, type HttpResponse } from './http.js';
import { isRouterMiss, Recorder, type Phase, type Violation, type ViolationKind } from './recorder.js';
import { requestArbitrary, ROUTE_KEYS, type Built, type Generated } from './routes.js';
import { setUpWorld } from './setup.js';
import { nth, type FuzzUser, type World } from './world.js';

export type { RateLimits, Violation, ViolationKind };

export interface FuzzOptions {
  /** Seeds every generated request: the same seed sends the same requests. */
  seed: number;
  /** Generated requests (BOLA attempts among them). */
  requests: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Only these indexes of the generated sequence (a reproducer), when set. */
  only?: number[];
  /** The Hearth fuzzed: dev or test mode, rate limits off. */
  dev: { url: string; devSecret: string; issuer: string; audience: string; bodyLimit: number };
  /** A Hearth in production mode trusting a local JWKS: forged tokens, dev routes absent, the rate limit burst. */
  jwks?: { url: string; target: TokenTarget; limits?: RateLimits };
  /** Bring one victim to FRIEND and wait for its proactive message (days of virtual clock), so BOLA aims at a real notification id. */
  notifications: boolean;
  onProgress?: (done: number, total: number, violations: number) => void;
  log?: (msg: string) => void;
}

export interface FuzzResult {
  seed: number;
  generated: number;
  /** Every request sent, by phase. */
  sent: Record<Phase, number>;
  /** route → status → count (status 0: no response), over every request sent. */
  figures: Record<string, Record<string, number>>;
  violations: Violation[];
  /**
   * Reported, not failed: error answers not in the API's `{"error": {"code", "message"}}`
   * shape, and answers other than the one API.md names (413 past the body limit, 422 for NUL).
   */
  warnings: Violation[];
  /** Routes of API.md the server does not serve (router 404s, never a handler's answer). */
  notServed: string[];
  /** Operations of the served OpenAPI document that the route table does not cover. */
  unfuzzed: string[];
  bola: { attempts: number; refused: number; byAttack: Record<string, Record<string, number>> };
  forged: ForgedTally;
  chatAfter: { users: number; ok: number };
  /** Chat messages not sent because their user was already wedged (a 504 before), and those users. */
  wedged: { skipped: number; users: string[] };
  /** Milliseconds per phase. */
  timings: Record<string, number>;
  passed: boolean;
}

/** The generated requests of `seed`, in chunks so huge bodies never pile up; with `indexes`, only those. */
export function* generate(seed: number, count: number, bodyLimit: number, indexes?: readonly number[]): Generator<[number, Generated]> {
  const arb = requestArbitrary(bodyLimit, [{ weight: 8, arbitrary: attackArbitrary }]);
  const CHUNK = 200;
  const wanted = indexes ? new Set(indexes) : undefined;
  for (let start = 0; start < count; start += CHUNK) {
    if (wanted && ![...wanted].some((i) => i >= start && i < start + CHUNK)) continue;
    const batch = fc.sample(arb, { seed: (seed + start * 7_919) | 0, numRuns: Math.min(CHUNK, count - start) });
    for (const [j, g] of batch.entries()) if (!wanted || wanted.has(start + j)) yield [start + j, g];
  }
}

/** The operations of the served OpenAPI document that no row of the route table covers. */
async function unfuzzedOperations(api: FuzzClient): Promise<string[]> {
  const doc = await api.call('GET /docs/openapi.json', { method: 'GET', path: '/docs/openapi.json', headers: {} });
  const paths = (bodyOf(doc).paths ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(paths)
    .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`))
    .filter((k) => !ROUTE_KEYS.includes(k));
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzResult> {
  const log = opts.log ?? (() => undefined);
  const rec = new Recorder();
  const dev = new FuzzClient(opts.dev.url, rec);
  const timings: Record<string, number> = {};
  const timed = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      timings[name] = Math.round(performance.now() - t0);
    }
  };

  const world = await timed('setup', () => setUpWorld(dev, { notifications: opts.notifications, log }));
  log(`setup: ${world.victims.length} victims, ${world.pool.length} pool users, ${world.erasable.length} erasable, 1 admin (${timings.setup} ms)`);
  const unfuzzed = await unfuzzedOperations(dev);
  const before = new Map<string, Snapshot>();
  for (const v of world.victims) before.set(v.id, await settledSnapshot(dev.url, v, world.admin));

  const forged: ForgedTally = { tokens: 0, attempts: 0, refused: 0 };
  await timed('forged', async () => {
    const clock = await dev.call('GET /v1/dev/clock', { method: 'GET', path: '/v1/dev/clock', headers: bearer(world.admin.token) });
    const devNow = Math.floor(Date.parse(String(bodyOf(clock).now as string)) / 1000);
    const victim = world.victims[0]!.id;
    await checkForgedTokens(dev.in('forged'), rec, 'dev', await devTarget(opts.dev.devSecret, opts.dev.issuer, opts.dev.audience, devNow), victim, forged);
    if (opts.jwks) {
      const prod = new FuzzClient(opts.jwks.url, rec, 'forged');
      await checkForgedTokens(prod, rec, 'jwks', opts.jwks.target, victim, forged);
      await checkProduction(prod.in('checks'), rec, opts.jwks.target, opts.jwks.limits);
    }
  });

  const total = opts.only?.length ?? opts.requests;
  log(`fuzz: ${total} generated requests, seed ${opts.seed}, ${opts.concurrency} at once`);
  const fuzz = await timed('fuzz', () => fuzzRequests(opts, world, rec, total));

  await timed('victims', () => checkVictims(dev.in('checks'), rec, world, before));
  const everyone = [...world.pool, ...world.erasable, ...world.victims, world.admin];
  const ok = await timed('chat after', () => checkChatAfter(dev.in('checks'), rec, everyone));

  const violations = rec.violationList;
  return {
    seed: opts.seed,
    generated: total,
    sent: rec.sent,
    figures: rec.figures,
    violations,
    warnings: rec.warningList,
    notServed: rec.notServed,
    unfuzzed,
    bola: fuzz.bola,
    forged,
    chatAfter: { users: everyone.length, ok },
    wedged: { skipped: fuzz.skipped, users: everyone.filter((u) => fuzz.wedged.has(u.id)).map((u) => u.label) },
    timings,
    passed: violations.length === 0,
  };
}

/** Sends the generated requests, `opts.concurrency` at once, and checks each answer. */
async function fuzzRequests(opts: FuzzOptions, world: World, rec: Recorder, total: number) {
  const base = opts.dev.url;
  const bola = { attempts: 0, refused: 0, byAttack: {} as Record<string, Record<string, number>> };
  const wedged = new Set<string>();
  let done = 0;
  let skipped = 0;

  const judgeBola = (index: number, actor: FuzzUser, built: Built, res: HttpResponse, attempt: NonNullable<Built['bola']>) => {
    bola.attempts++;
    const row = (bola.byAttack[attempt.attack] ??= {});
    row[String(res.status)] = (row[String(res.status)] ?? 0) + 1;
    // An admin route the server does not serve yet refuses by its absence.
    if (attempt.accept.includes(res.status) || isRouterMiss(res)) bola.refused++;
    else
      rec.violation({
        kind: 'bola',
        key: `${attempt.attack} → ${res.status}`,
        index,
        request: reproducer(base, built.req),
        response: describeResponse(res),
        detail: `${actor.label} against ${attempt.victim}; refusals: ${attempt.accept.join('/')}`,
      });
  };

  const count = opts.only ? Math.max(...opts.only) + 1 : opts.requests;
  await pool(generate(opts.seed, count, opts.dev.bodyLimit, opts.only), opts.concurrency, async ([index, g]) => {
    const actor = nth(g.actors === 'erasable' ? world.erasable : world.pool, g.actor)!;
    const built = g.build(world, actor);
    // A wedged user's every message waits out TURN_TIMEOUT_MS: the first 504 is the finding, the rest only cost time.
    if (g.route === CHAT_ROUTE && !built.bola && wedged.has(actor.id) && built.req.headers.authorization === `Bearer ${actor.token}`) {
      skipped++;
    } else {
      const res = await send(base, built.req);
      rec.record('fuzz', base, g.route, built.req, res, index, built);
      if (g.route === CHAT_ROUTE && res.status === 504) wedged.add(actor.id);
      if (built.bola) judgeBola(index, actor, built, res, built.bola);
      else if (res.status >= 200 && res.status < 300) built.learn?.(res);
    }
    opts.onProgress?.(++done, total, rec.violationCount);
  });
  return { bola, wedged, skipped };
}
