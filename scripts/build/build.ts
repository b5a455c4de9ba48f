// The ahead-of-time build: each service bundled to services/<name>/dist and, with
// --out, deployed to <out>/<name> with only its production dependencies — the folder
// its image holds (deploy/Dockerfile). --start then starts each output as its image
// does and reports the time to ready and the resident memory.
//
//   pnpm build                          bundle every service, check its declared dependencies
//   pnpm build --out .build             … and write each deployable folder
//   pnpm build --out .build --start     … and start each one against NATS_URL / DATABASE_URL
//   pnpm build --services ingress,memory --out .build
//   pnpm build --write-deps             rewrite services/*/package.json dependencies from the bundles
import { randomBytes, randomUUID } from 'node:crypto';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { SERVICE_NAMES } from '@hearth/bus';
import { cleanupNamespace, dropSchemas } from '@hearth/testing';
import { bundleService, REPO, type Bundle } from './bundle.js';
import { dependencyDrift, deployService, mib, sizeOf, startFromOutput, stopGracefully, writeDependencies } from './output.js';

function log(msg: string): void {
  process.stderr.write(`[build] ${msg}\n`);
}

function servicesArg(value: string): string[] {
  const names = value.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = names.filter((n) => !(SERVICE_NAMES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) throw new InvalidArgumentError(`unknown service(s): ${unknown.join(', ') || '(none)'}; one of ${SERVICE_NAMES.join(', ')}`);
  return names;
}

const program = new Command('build')
  .description('Bundle each service ahead of time and write its deployable folder.')
  .option('--services <names>', 'comma-separated services (default: all)', servicesArg)
  .option('--out <dir>', 'write each service\'s deployable folder to <dir>/<service> (pnpm deploy, production dependencies only)')
  .option('--start', 'start each deployable folder as its image does and report time to ready (needs --out, NATS_URL, DATABASE_URL)')
  .option('--write-deps', 'rewrite each service\'s package.json dependencies from what its bundle imports')
  .parse();

const opts = program.opts<{ services?: string[]; out?: string; start?: boolean; writeDeps?: boolean }>();
const services = opts.services ?? [...SERVICE_NAMES];
if (opts.start && !opts.out) program.error('--start needs --out');

const bundles: Bundle[] = [];
let failed = false;
for (const name of services) {
  const b = await bundleService(name);
  bundles.push(b);
  const foreign = b.serviceFolders.filter((f) => f !== name);
  if (foreign.length > 0) {
    failed = true;
    log(`${name}: FAILED — the bundle holds code of ${foreign.join(', ')} (a service must not import another)`);
  }
  if (opts.writeDeps) writeDependencies(b);
  const drift = dependencyDrift(b);
  if (drift.length > 0) {
    failed = true;
    log(`${name}: FAILED — services/${name}/package.json dependencies differ from what the bundle imports: ${drift.join('; ')} (run pnpm build --write-deps, then pnpm install)`);
  }
  log(`${name}: dist/main.js ${mib(b.bytes)} in ${Math.round(b.ms)} ms; ${b.packages.length} npm packages; assets: ${b.assets.join(', ') || 'none'}`);
}
if (failed) process.exit(1);
if (!opts.out) process.exit(0);

const outRoot = isAbsolute(opts.out) ? opts.out : resolve(process.cwd(), opts.out);
const rows: string[] = [];
for (const name of services) {
  const started = performance.now();
  const dir = join(outRoot, name);
  await deployService(name, dir);
  const row = `| ${name} | ${mib(sizeOf(join(dir, 'dist')))} | ${mib(sizeOf(join(dir, 'node_modules')))} | ${mib(sizeOf(dir))} |`;
  rows.push(row);
  log(`${name}: deployed to ${relative(REPO, dir) || dir} in ${Math.round(performance.now() - started)} ms`);
}
process.stdout.write(`\n| service | dist | node_modules | total |\n|---|---|---|---|\n${rows.join('\n')}\n`);

if (opts.start) {
  const nats = process.env['NATS_URL'] ?? '';
  const database = process.env['DATABASE_URL'] ?? '';
  if (!nats || !database) program.error('--start needs NATS_URL and DATABASE_URL');
  // A throwaway namespace and development settings: ready means migrated, subscribed, serving.
  const namespace = `build${randomUUID().slice(0, 8)}`;
  const env = { NATS_URL: nats, DATABASE_URL: database, HEARTH_NAMESPACE: namespace, HEARTH_ENV: 'test', HEARTH_KEK: randomBytes(32).toString('base64'), LOG_LEVEL: 'warn' };
  const started: string[] = [];
  for (const name of services) {
    const s = await startFromOutput(join(outRoot, name), env);
    const code = await stopGracefully(s.child);
    started.push(`| ${name} | ${Math.round(s.readyMs)} ms | ${mib(s.rssBytes)} | ${code} |`);
    log(`${name}: ready in ${Math.round(s.readyMs)} ms, RSS ${mib(s.rssBytes)}, exit ${code} after SIGTERM`);
  }
  process.stdout.write(`\n| service | start to ready | RSS at ready | exit on SIGTERM |\n|---|---|---|---|\n${started.join('\n')}\n`);
  await cleanupNamespace(nats, namespace);
  await dropSchemas(database, namespace);
}
