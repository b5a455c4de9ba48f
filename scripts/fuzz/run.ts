// The fuzz suite (issue 13): generated requests over every endpoint of API.md,
// BOLA attempts, forged tokens, and every touched user chatting afterwards.
//
//   pnpm fuzz [--requests 10000] [--seed N] [--concurrency 16] [--only 17,512] [--json FILE] [--url BASE] [--no-jwks] [--no-notifications]
//
// Without --url it starts two Hearths (scripts/start, Postgres, fresh namespaces):
// test mode with dev tokens, and production mode trusting a local JWKS server.
// Exit code 0 when every check passes, 1 otherwise; the seed is printed first so
// a failure reproduces (`--seed S --only I` sends request I alone).
import { writeFile } from 'node:fs/promises';
import cliProgress from 'cli-progress';
import { Command, InvalidArgumentError } from 'commander';
import { intArg, isLoopback } from '../bench/lib/cli.js';
import { runFuzz, type FuzzOptions } from './engine.js';
import { renderReport } from './report.js';
import { BODY_LIMIT, DEV_AUTH, startTargets, type Targets } from './targets.js';

interface Options {
  requests: number;
  seed?: number;
  concurrency: number;
  only?: number[];
  json?: string;
  url?: string;
  jwks: boolean;
  notifications: boolean;
}

function log(msg: string): void {
  process.stderr.write(`[fuzz] ${msg}\n`);
}

function indexList(value: string): number[] {
  const list = value.split(',').map((s) => Number(s.trim()));
  if (list.some((n) => !Number.isInteger(n) || n < 0)) throw new InvalidArgumentError('expected indexes such as 17,512');
  return list;
}

function loopbackUrl(value: string): string {
  const u = new URL(value);
  if (!isLoopback(u.hostname)) throw new InvalidArgumentError('the fuzzer only talks to 127.0.0.1 (or localhost)');
  return u.origin;
}

const opts = new Command('fuzz')
  .description('Generated hostile and valid requests over every endpoint; BOLA, forged tokens; 0 5xx to pass')
  .option('--requests <n>', 'generated requests', intArg(1), 10_000)
  .option('--seed <n>', 'seed of the generated requests (default: random, printed)', intArg(-(2 ** 31), 2 ** 31 - 1))
  .option('--concurrency <n>', 'requests in flight at once', intArg(1, 256), 16)
  .option('--only <indexes>', 'send only these generated requests (with the same --seed)', indexList)
  .option('--json <file>', 'also write the figures as JSON')
  .option('--url <base>', 'fuzz a dev-mode Hearth already running there (no production-mode checks)', loopbackUrl)
  .option('--no-jwks', 'skip the production-mode Hearth (forged JWKS tokens, rate limit burst)')
  .option('--no-notifications', 'skip making a victim a FRIEND with a proactive message (saves seconds of setup)')
  .parse()
  .opts<Options>();

function progress(total: number): { update(done: number, violations: number): void; stop(): void } {
  if (process.stderr.isTTY) {
    const bar = new cliProgress.SingleBar(
      { stream: process.stderr, format: '[fuzz] {bar} {percentage}% | {value}/{total} requests | {rate}/s | violations {violations} | eta {eta_formatted}', hideCursor: true },
      cliProgress.Presets.shades_classic,
    );
    const t0 = performance.now();
    bar.start(total, 0, { violations: 0, rate: '0' });
    return {
      update: (done, violations) => bar.update(done, { violations, rate: ((done * 1000) / (performance.now() - t0)).toFixed(0) }),
      stop: () => bar.stop(),
    };
  }
  let tenth = 1;
  return {
    update(done, violations) {
      while (tenth <= 10 && done * 10 >= total * tenth) log(`${done}/${total} requests (${tenth++ * 10}%), violations ${violations}`);
    },
    stop: () => undefined,
  };
}

async function main(): Promise<number> {
  const seed = opts.seed ?? (Math.random() * 2 ** 31) | 0;
  log(`seed ${seed} (reproduce with --seed ${seed})`);
  let targets: Targets | undefined;
  let stopping = false;
  process.on('SIGINT', () => {
    if (stopping) process.exit(130);
    stopping = true;
    log('interrupted: stopping the Hearths (Ctrl-C again to exit now)');
    void (targets?.stop() ?? Promise.resolve()).finally(() => process.exit(130));
  });
  try {
    let target: Pick<FuzzOptions, 'dev' | 'jwks'>;
    if (opts.url) {
      target = { dev: { url: opts.url, ...DEV_AUTH, bodyLimit: BODY_LIMIT } };
    } else {
      log(`starting Hearth (test mode${opts.jwks ? ', and production mode with a local JWKS' : ''}) on Postgres`);
      targets = await startTargets({ jwks: opts.jwks });
      target = targets.options;
    }
    const total = opts.only?.length ?? opts.requests;
    const bar = progress(total);
    const result = await runFuzz({
      ...target,
      seed,
      requests: opts.requests,
      concurrency: opts.concurrency,
      only: opts.only,
      notifications: opts.notifications,
      log,
      onProgress: (done, _total, violations) => bar.update(done, violations),
    }).finally(() => bar.stop());
    process.stdout.write(`${renderReport(result)}\n`);
    if (opts.json) {
      await writeFile(opts.json, `${JSON.stringify(result, null, 2)}\n`);
      log(`figures written to ${opts.json}`);
    }
    log(`seed ${seed}: ${result.passed ? 'passed' : `FAILED (${result.violations.length} kinds of violation)`}`);
    return result.passed ? 0 : 1;
  } finally {
    if (targets && !stopping) await targets.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
