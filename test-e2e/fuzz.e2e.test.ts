// The fuzz suite at CI size (issue 13): generated requests over every endpoint of
// API.md (scripts/fuzz), against Hearth started as the README starts it
// (scripts/start, Postgres) in test mode, with a production-mode Hearth beside it
// that trusts a local JWKS for the forged tokens and runs with small rate limits.
// `pnpm fuzz` runs the same engine from the command line, with a random seed.
import { runFuzz, type FuzzResult, type ViolationKind } from '../scripts/fuzz/engine.js';
import { renderReport } from '../scripts/fuzz/report.js';
import { startTargets, type Targets } from '../scripts/fuzz/targets.js';

/** 10,000 requests take about 45 s on two cores (80 s with both Hearths' start): the CI run is the full size. */
const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 10_000);
/** A fixed seed, so CI is repeatable; FUZZ_SEED tries another. */
const SEED = Number(process.env.FUZZ_SEED ?? 20_261_124);

/** Each violation of some kinds, with its reproducer, as lines a failed expectation shows. */
function found(r: FuzzResult, ...kinds: ViolationKind[]): string[] {
  return r.violations
    .filter((v) => kinds.includes(v.kind))
    .map((v) => [`${v.key} (×${v.count})${v.index !== undefined ? ` request #${v.index}, seed ${r.seed}` : ''}`, v.detail, v.request, v.response].filter(Boolean).join('\n  '));
}

describe(`fuzz: ${REQUESTS} generated requests over every endpoint (scripts/start, Postgres; production mode with a local JWKS beside it)`, () => {
  let targets: Targets | undefined;
  let result: FuzzResult;

  beforeAll(async () => {
    targets = await startTargets({ jwks: true });
    result = await runFuzz({ ...targets.options, seed: SEED, requests: REQUESTS, concurrency: 16, notifications: true });
    // The figures table and every finding, for the CI log.
    process.stderr.write(`${renderReport(result)}\n`);
  }, 240_000);

  afterAll(async () => {
    expect(await targets?.stop()).toEqual([0, 0]);
  });

  it('sends every generated request and answers none of them 5xx', () => {
    expect(result.sent.fuzz).toBe(REQUESTS - result.wedged.skipped);
    expect(found(result, '5xx', 'no response')).toEqual([]);
  });

  it('refuses every BOLA attempt (403/404; admin routes 403) and changes nothing of the victims', () => {
    expect(result.bola.attempts).toBeGreaterThan(REQUESTS / 50);
    expect(found(result, 'bola', 'victim changed')).toEqual([]);
    expect(result.bola.refused).toBe(result.bola.attempts);
  });

  it('answers every forged token 401, in dev mode and against a JWKS, while real tokens pass', () => {
    expect(found(result, 'forged token', 'control')).toEqual([]);
    expect(result.forged.tokens).toBeGreaterThan(60);
    expect(result.forged.refused).toBe(result.forged.attempts);
  });

  it('lets every user it touched chat normally afterwards', () => {
    expect(found(result, 'chat after')).toEqual([]);
    expect(result.chatAfter.ok).toBe(result.chatAfter.users);
  });

  it('in production mode serves no dev route, and a burst over the rate limits gets 429 with Retry-After', () => {
    expect(found(result, 'production', 'rate limit')).toEqual([]);
  });
});
