#!/usr/bin/env node
// Runs the NATS users and permissions of infra/nats.yaml on a real, throwaway nats-server
// (a free port of 127.0.0.1, its own temp dir; needs `nats-server` 2.9+ installed) with the
// code that uses them, one connection per service user:
//   node --import tsx deploy/check-nats.mjs [other/nats.yaml]
// What check.mjs reads in the file, this proves against the server: every service opens the
// data-key bucket, creates and reads keys and watches it (including its flow control, under
// a burst of changes); every service consumes ingress's `_erasures` subject and appends to
// its own, and ingress consumes every service's; ingress destroys a user's key and
// secure-erases the replaced revision, and purges the user's dead letters; no other user
// can delete messages, and nobody can delete or purge a stream. Any publish the server
// refused that this script did not try on purpose is a problem.
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import { ACK, appendDecided, Bus, draft, eventType, GLOBAL_KEYS, keyBucketName, LocalKek, purgeDeadLetters, SERVICE_NAMES, startConsumer } from '@hearth/bus';
import { common, commonEvents } from '@hearth/proto';
import { ERASURE_REACTOR, ErasureEvents } from '@hearth/store';
import { canConnect, waitFor } from '@hearth/testing';

const deployDir = dirname(fileURLToPath(import.meta.url));
// The namespace nats.conf is written for (config.yaml's HEARTH_NAMESPACE).
const NS = 'hearth';
const KEY_STREAM = `KV_${keyBucketName(NS)}`;
const DLQ = `${NS}_DLQ`.toUpperCase();
const natsYaml = process.argv[2] ?? join(deployDir, 'infra/nats.yaml');
const problems = [];
const fail = (what) => problems.push(what);

/** The `yaml` package, found as check.mjs finds it. */
function loadYaml() {
  const require = createRequire(import.meta.url);
  try {
    return require('yaml');
  } catch {
    const store = join(deployDir, '..', 'node_modules', '.pnpm');
    const dir = existsSync(store) ? readdirSync(store).filter((d) => /^yaml@2\./.test(d)).sort().pop() : undefined;
    if (!dir) throw new Error('the yaml package is not installed (run pnpm install)');
    return require(join(store, dir, 'node_modules', 'yaml'));
  }
}

/** nats.conf of infra/nats.yaml, made local: no TLS, no cluster, a temp store, a given port. */
function localConf(port, storeDir) {
  const docs = loadYaml().parseAllDocuments(readFileSync(natsYaml, 'utf8')).map((d) => d.toJS());
  const conf = docs.find((d) => d?.kind === 'ConfigMap' && d.metadata?.name === 'nats-config')?.data?.['nats.conf'];
  if (!conf) throw new Error('infra/nats.yaml: no nats.conf in ConfigMap nats-config');
  const lines = conf.split('\n');
  const out = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const block = /^(tls|cluster|jetstream) \{/.exec(line);
    if (block) {
      // Skip the whole top-level block (brace counting; these blocks hold no braces in strings).
      let depth = 0;
      for (; i < lines.length; i++) {
        depth += (lines[i].match(/\{/g) ?? []).length - (lines[i].match(/\}/g) ?? []).length;
        if (depth === 0) break;
      }
      if (block[1] === 'jetstream') out.push(`jetstream { store_dir: ${JSON.stringify(storeDir)} }`);
      continue;
    }
    if (/^(http|pid_file|server_name|listen):/.test(line)) continue;
    out.push(line);
  }
  return [`server_name: deploy-check`, `listen: 127.0.0.1:${port}`, ...out].join('\n');
}

async function freePort() {
  const srv = createServer();
  srv.listen(0, '127.0.0.1');
  await once(srv, 'listening');
  const { port } = srv.address();
  srv.close();
  await once(srv, 'close');
  return port;
}

/** True when the server refused the publish behind `fn` for lack of permission. */
async function refused(fn) {
  try {
    await fn();
    return false;
  } catch (err) {
    return /permissions violation/i.test(String(err?.message ?? err));
  }
}

const dir = mkdtempSync(join(tmpdir(), 'hearth-deploy-check-nats-'));
const logFile = join(dir, 'nats.log');
const port = await freePort();
const confText = localConf(port, join(dir, 'store'));
writeFileSync(join(dir, 'nats.conf'), confText);
// Letters and digits, starting with a letter (nats-users.example.yaml says why).
const passwords = Object.fromEntries([...confText.matchAll(/\$(NATS_PASSWORD_[A-Z_]+)/g)].map((m) => [m[1], `p${randomBytes(12).toString('hex')}`]));
const server = spawn('nats-server', ['-c', join(dir, 'nats.conf'), '-l', logFile], { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...passwords } });
// A config the server rejects is reported on stderr, before any log file.
let serverStderr = '';
server.stderr.on('data', (b) => (serverStderr += b.toString()));
server.on('error', (err) => {
  console.error(`deploy/check-nats: cannot run nats-server (${err.message}); install nats-server 2.9 or newer`);
  rmSync(dir, { recursive: true, force: true });
  process.exit(2);
});
const cleanups = [];
const finish = async (code) => {
  for (const c of cleanups.reverse()) await c().catch(() => undefined);
  if (server.exitCode === null) {
    server.kill('SIGTERM');
    await once(server, 'exit');
  }
  rmSync(dir, { recursive: true, force: true });
  process.exit(code);
};

try {
  await waitFor(
    async () => {
      if (server.exitCode !== null) {
        const log = existsSync(logFile) ? readFileSync(logFile, 'utf8') : '';
        throw new Error(`nats-server exited (${server.exitCode}): ${`${serverStderr}\n${log}`.trim().split('\n').slice(-10).join('\n')}`);
      }
      return canConnect('127.0.0.1', port, 500);
    },
    { what: 'nats-server to listen', timeoutMs: 15_000 },
  );
  const url = `nats://127.0.0.1:${port}`;
  const password = (user) => passwords[`NATS_PASSWORD_${user.toUpperCase().replace(/-/g, '_')}`];
  const warnings = [];
  const logger = (svc) => ({ info: () => undefined, error: (o, m) => warnings.push(`${svc}: ${m} ${JSON.stringify(o)}`), warn: (o, m) => warnings.push(`${svc}: ${m} ${JSON.stringify(o)}`) });
  // One KEK for all: the hearth-kek Secret.
  const kek = LocalKek.fromBase64(randomBytes(32).toString('base64'));

  const admin = await connect({ servers: url, user: 'admin', pass: password('admin'), name: 'deploy-check-admin' });
  cleanups.push(() => admin.close());
  const adminJsm = await jetstreamManager(admin);

  // Each service as its own user, as its Deployment connects; a long cache TTL, so that only
  // the watch can tell a process that a key was destroyed.
  const buses = {};
  for (const svc of SERVICE_NAMES) {
    buses[svc] = await Bus.connect({
      url,
      name: `deploy-check-${svc}`,
      user: svc,
      pass: password(svc),
      namespace: NS,
      logger: logger(svc),
      streamReplicas: 1,
      encryption: { kek, keyCacheTtlMs: 600_000 },
    });
    cleanups.push(() => buses[svc].close());
    await buses[svc].ensureStreams(SERVICE_NAMES);
  }
  const ingress = buses.ingress;

  // Erasure consumers: every service reads ingress's `_erasures` subject and appends its
  // ErasureApplied to its own; ingress reads every service's (libs/store erasure.ts,
  // services/ingress projections/erasures.ts).
  const applied = new Set();
  const consumers = [];
  for (const svc of SERVICE_NAMES) {
    const bus = buses[svc];
    const c = await startConsumer(bus, {
      service: svc,
      purpose: `${ERASURE_REACTOR}-ingress-${GLOBAL_KEYS.erasures}`,
      source: 'ingress',
      key: GLOBAL_KEYS.erasures,
      handle: async (events) => {
        for (const e of events.filter((x) => x.type === ErasureEvents.UserErased.name)) {
          const { erasureId, keyGeneration } = ErasureEvents.UserErased.decode(e.payload);
          await appendDecided(bus, svc, GLOBAL_KEYS.erasures, () => [
            draft(ErasureEvents.ErasureApplied, { erasureId, userId: e.userId, service: svc, keyGeneration, appliedAt: new Date() }, { id: `erasure-applied:${erasureId}:${svc}`, userId: e.userId, occurredAt: new Date(), clear: true }),
          ]);
        }
        return events.map(() => ACK);
      },
    });
    if (c.name !== `${svc}-erase-user-ingress-_erasures`) fail(`durable ${c.name}: expected ${svc}-erase-user-ingress-_erasures`);
    consumers.push(c);
    const r = await startConsumer(ingress, {
      service: 'ingress',
      purpose: `erasures-${svc}-${GLOBAL_KEYS.erasures}`,
      source: svc,
      key: GLOBAL_KEYS.erasures,
      handle: async (events) => {
        for (const e of events.filter((x) => x.type === ErasureEvents.ErasureApplied.name)) applied.add(ErasureEvents.ErasureApplied.decode(e.payload).service);
        return events.map(() => ACK);
      },
    });
    if (r.name !== `ingress-erasures-${svc}-_erasures`) fail(`durable ${r.name}: expected ingress-erasures-${svc}-_erasures`);
    consumers.push(r);
  }

  // A user's first event (ingress creates the key) that memory cannot handle: memory opens it
  // with the key, fails, and dead-letters it.
  const user = randomUUID();
  const Probe = eventType('hearth.deploy.v1.Probe', commonEvents.UserErased);
  consumers.push(
    await startConsumer(buses.memory, {
      service: 'memory',
      purpose: 'deploy-check-poison',
      source: 'ingress',
      key: user,
      maxDeliver: 1,
      handle: async (events) => {
        if (events.some((e) => e.erased || e.payload.length === 0)) throw new Error('deploy check: memory could not open the payload');
        throw new Error('deploy check: poison');
      },
    }),
  );
  cleanups.push(async () => {
    for (const c of consumers) await c.stop();
  });
  const probeId = randomUUID();
  await appendDecided(ingress, 'ingress', user, () => [draft(Probe, { erasureId: 'probe', keyGeneration: 1, requestedAt: new Date() }, { id: probeId, userId: user, occurredAt: new Date() })]);
  const deadLetter = await waitFor(async () => (await adminJsm.streams.getMessage(DLQ, { last_by_subj: `${NS}.dlq.memory` }).catch(() => null)) ?? false, { what: 'memory to dead-letter the probe', timeoutMs: 15_000 });
  const dlError = common.DeadLetter.decode(deadLetter.data).error;
  if (dlError !== 'deploy check: poison') fail(`memory's dead letter says "${dlError}", expected "deploy check: poison"`);

  // Every other service reads the key and keeps it (10 min cache).
  const sealedBy = {};
  for (const svc of SERVICE_NAMES) {
    const id = randomUUID();
    const s = await buses[svc].keyring.seal(user, id, Buffer.from(`hello from ${svc}`));
    if (s.erased || s.keyGeneration !== 1) fail(`${svc}: sealed ${JSON.stringify({ erased: s.erased, generation: s.keyGeneration })}, expected generation 1`);
    sealedBy[svc] = { id, ...s };
    const opened = await buses[svc].keyring.open(user, 1, id, s.payload);
    if (Buffer.from(opened ?? []).toString() !== `hello from ${svc}`) fail(`${svc}: cannot open what it sealed`);
  }

  // A burst of changes to the bucket, written by every service: the watches must keep up. A
  // watch asks for flow control once a few MB are unacknowledged; each process answers on
  // $JS.FC.<stream>.> (refused, its watch stalls for good). Real key records are ~300 bytes, so
  // large filler records stand in for thousands of users.
  await Promise.all(SERVICE_NAMES.map(async (svc) => {
    const kvOf = await new Kvm(buses[svc].nc).open(keyBucketName(NS));
    const filler = randomBytes(6_000).toString('base64');
    for (let i = 0; i < 100; i++) await kvOf.put(`deploy-check-${svc}-${i}`, filler);
  }));

  // Erasure: ingress destroys the key; the replaced revision (the wrapped key) is erased on disk.
  const kv = await new Kvm(admin).open(keyBucketName(NS));
  const before = await kv.get(Buffer.from(user).toString('base64url'));
  const { generation } = await ingress.keyring.destroy(user);
  if (generation !== 1) fail(`ingress destroyed generation ${generation}, expected 1`);
  const left = await adminJsm.streams.getMessage(KEY_STREAM, { seq: before.revision }).catch(() => null);
  if (left) fail(`the replaced key revision ${before.revision} is still in ${KEY_STREAM} (secure erase refused?)`);
  // Every process forgets the key at once (the watch), though its cache would keep it 10 min.
  for (const svc of SERVICE_NAMES) {
    const { id, payload } = sealedBy[svc];
    await waitFor(async () => (await buses[svc].keyring.open(user, 1, id, payload)) === null, { what: `${svc} to see the erasure`, timeoutMs: 5_000 }).catch(() =>
      fail(`${svc} still opens the destroyed key after 5 s: its watch of ${KEY_STREAM} does not deliver`),
    );
  }
  // UserErased on ingress's `_erasures`; every service answers on its own.
  await appendDecided(ingress, 'ingress', GLOBAL_KEYS.erasures, () => [
    draft(ErasureEvents.UserErased, { erasureId: 'deploy-check', keyGeneration: generation, requestedAt: new Date() }, { id: `erasure:${user}`, userId: user, occurredAt: new Date(), clear: true }),
  ]);
  await waitFor(async () => applied.size === SERVICE_NAMES.length, { what: 'ErasureApplied from every service', timeoutMs: 15_000 }).catch(() =>
    fail(`ErasureApplied reached ingress from ${[...applied].sort().join(', ') || 'no service'} only`),
  );
  // Ingress purges the user's dead letters with secure erase.
  const purged = await purgeDeadLetters(ingress, user).catch((err) => {
    fail(`ingress could not purge dead letters: ${err.message}`);
    return undefined;
  });
  if (purged !== undefined && purged !== 1) fail(`ingress purged ${purged} dead letters, expected 1`);
  if (await adminJsm.streams.getMessage(DLQ, { seq: deadLetter.seq }).catch(() => null)) fail(`the dead letter ${deadLetter.seq} is still in ${DLQ}`);

  // What nobody may do, and what only ingress may.
  const expectedViolations = new Set();
  const mustRefuse = async (svc, subject, what, fn) => {
    expectedViolations.add(`${svc} ${subject}`);
    if (!(await refused(fn))) fail(`${svc} may ${what}`);
  };
  const someStream = (svc) => `${NS}_${svc.replace(/-/g, '_')}`.toUpperCase();
  for (const svc of SERVICE_NAMES) {
    const jsm = buses[svc].jsm;
    for (const stream of [KEY_STREAM, DLQ, someStream(svc), 'KV_hearth_ratelimit']) {
      await mustRefuse(svc, `$JS.API.STREAM.PURGE.${stream}`, `purge ${stream}`, () => jsm.streams.purge(stream));
      await mustRefuse(svc, `$JS.API.STREAM.DELETE.${stream}`, `delete ${stream}`, () => jsm.streams.delete(stream));
    }
    const mayErase = svc === 'ingress' ? [] : [KEY_STREAM, DLQ];
    for (const stream of [...mayErase, someStream(svc), someStream(svc === 'memory' ? 'trust' : 'memory'), 'KV_hearth_ratelimit']) {
      await mustRefuse(svc, `$JS.API.STREAM.MSG.DELETE.${stream}`, `delete messages of ${stream}`, () => jsm.streams.deleteMessage(stream, 1, true));
    }
    const other = svc === 'router' ? 'memory' : 'router';
    await mustRefuse(svc, `${NS}.${other}.v1._erasures`, `append to ${other}'s stream`, () => buses[svc].js.publish(`${NS}.${other}.v1._erasures`, Buffer.from('x'), { timeout: 2_000 }));
  }

  for (const w of warnings) if (!/^memory: event quarantined .*"consumer":"memory-deploy-check-poison"/.test(w)) fail(`logged: ${w}`);
  // The server's own account of refused publishes: only the ones tried on purpose above.
  await new Promise((r) => setTimeout(r, 200));
  const seen = [...readFileSync(logFile, 'utf8').matchAll(/Publish Violation - User "([^"]+)", Subject "([^"]+)"/g)].map((m) => `${m[1]} ${m[2]}`);
  for (const v of seen) if (!expectedViolations.has(v)) fail(`nats-server refused ${v.replace(' ', ' publishing ')}`);
  // The refusals tried on purpose must be in the log too, or the log is not read right.
  if (!seen.some((v) => expectedViolations.has(v))) fail('no refused publish found in the nats-server log: its format changed?');
} catch (err) {
  fail(`stopped: ${err?.stack ?? err}${err?.cause ? `\n  because: ${err.cause.message ?? err.cause}` : ''}`);
}

if (problems.length > 0) {
  console.error(`deploy/check-nats: ${problems.length} problem(s)\n  ${[...new Set(problems)].join('\n  ')}`);
  await finish(1);
}
console.log(`deploy/check-nats: ${SERVICE_NAMES.length} service users and admin on nats-server: keys, watches, erasure consumers, secure erase and refusals: ok`);
await finish(0);
