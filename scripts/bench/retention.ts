// The hourly retention evaluation (turn-pipeline §14.0) at scale: N users seeded
// straight into the retention projection's tables (mixed stages, zones and
// last messages), their schedule set H hours behind the clock, then R
// scheduler replicas catching up every user-hour at once — the work after an
// outage or a jump of the virtual clock. Reports user-hours per second, the
// per-user catch-up time p50/p99, the planned messages (real JetStream appends)
// and the cost of an idle poll, beside the raw JetStream and Postgres figures
// measured in the same run.
//
//   NATS_URL=… DATABASE_URL=… pnpm bench:retention [--users 2000] [--hours 24] [--replicas 3] [--json FILE]
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import pg from 'pg';
import { Bus } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import type { Logger } from '@hearth/telemetry';
import { dropSchema, migrateSchema, openDatabase, schemaDb, startProjection } from '@hearth/store';
import { sql } from 'kysely';
import type { RetentionDb } from '../../services/retention/src/db.js';
import { floorHour } from '../../services/retention/src/domain/local-time.js';
import { service } from '../../services/retention/src/index.js';
import { retentionProjection } from '../../services/retention/src/projections/retention.js';
import { evaluateDueHours } from '../../services/retention/src/schedule/scheduler.js';
import { intArg, log, requiredServerEnv, withTimeout } from './lib/cli.js';
import { createProgress } from './lib/progress.js';
import { measureDatabase, measureJetStream } from './lib/raw-costs.js';
import { fmt, table } from './lib/report.js';
import { percentile, perSecond } from './lib/stats.js';

const HOUR = 3_600_000;
const ZONES = ['Asia/Seoul', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'America/Los_Angeles', 'Australia/Sydney', 'UTC'];
const STAGES = ['STRANGER', 'ACQUAINTANCE', 'FRIEND', 'FRIEND', 'CLOSE_FRIEND'];

async function main(): Promise<void> {
  const opts = new Command()
    .name('bench:retention')
    .option('--users <n>', 'users with hours to evaluate', intArg(1, 1_000_000), 2_000)
    .option('--hours <n>', 'hours each user is behind the clock', intArg(1, 24 * 90), 24)
    .option('--replicas <n>', 'scheduler replicas evaluating at once', intArg(1, 32), 3)
    .option('--json <file>', 'write the figures as JSON')
    .parse()
    .opts<{ users: number; hours: number; replicas: number; json?: string }>();
  const env = requiredServerEnv((m) => {
    log(m);
    process.exit(2);
  }, 'bench:retention needs a real NATS server and Postgres (see README: Tools).');

  const ns = `bench_ret_${randomUUID().slice(0, 8)}`;
  const schema = `${ns}_retention`;
  const database = await openDatabase({ url: env.DATABASE_URL, poolSize: 4 * opts.replicas + 2 });
  const quiet = { info: () => undefined, warn: (o: object, m?: string) => log(`${m ?? ''} ${JSON.stringify(o)}`), error: (o: object, m?: string) => log(`${m ?? ''} ${JSON.stringify(o)}`) };
  const bus = await Bus.connect({ url: env.NATS_URL, name: 'bench-retention', namespace: ns, logger: quiet });
  const raw = new pg.Client({ connectionString: env.DATABASE_URL });
  await raw.connect();
  try {
    await migrateSchema(database, schema, service.migrations);
    await bus.ensureStreams(['ingress', 'orchestrator', 'retention']);
    const db = schemaDb<RetentionDb>(database, schema);
    const clock = new ManualClock(new Date('2026-11-23T00:00:00Z'));
    const start = floorHour(clock.now());

    log(`seeding ${opts.users} users into ${schema}, each ${opts.hours} h behind`);
    const seeding = createProgress(opts.users, 'seed', 'users');
    for (let i = 0; i < opts.users; i += 500) {
      const users = [];
      const schedule = [];
      for (let j = i; j < Math.min(opts.users, i + 500); j++) {
        const userId = randomUUID();
        users.push({
          user_id: userId,
          active: true,
          timezone: ZONES[j % ZONES.length]!,
          proactive_enabled: j % 10 !== 0,
          mute_until: null,
          stage: STAGES[j % STAGES.length]!,
          // Last words spread over the three days before the window.
          last_interaction_at: new Date(start.getTime() - ((j * 7) % 72) * HOUR),
          conversation_id: randomUUID(),
          ai_friend_id: randomUUID(),
          onboarded_at: new Date(start.getTime() - 30 * 24 * HOUR),
        });
        schedule.push({ user_id: userId, evaluated_through: start, evaluations: 0, claimed_by: null, claimed_until: null });
        seeding.tick(0);
      }
      await db.insertInto('users').values(users).execute();
      await db.insertInto('schedule').values(schedule).execute();
    }
    seeding.stop();
    await sql`analyze ${sql.table(`${schema}.users`)}`.execute(db);
    await sql`analyze ${sql.table(`${schema}.schedule`)}`.execute(db);

    const silent = { ...quiet, debug: () => undefined } as unknown as Logger;
    // The projection applies each plan, as in the service: the next hour of that user is decided on it.
    const projection = await startProjection(bus, db, 'retention', retentionProjection);
    // An idle poll: nothing due (the projection's sources are empty streams here).
    const idle: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t0 = performance.now();
      await evaluateDueHours({ bus, db, clock, logger: silent }, { replica: 'idle' });
      idle.push(performance.now() - t0);
    }

    clock.advance(opts.hours * HOUR);
    log(`catching up ${opts.users} users × ${opts.hours} h with ${opts.replicas} replica(s)`);
    const perUser: number[] = [];
    const progress = createProgress(opts.users, 'catch up', 'users');
    const onUser = ({ ms }: { ms: number }) => {
      perUser.push(ms);
      progress.tick(0);
    };
    const started = performance.now();
    const reports = await Promise.all(Array.from({ length: opts.replicas }, (_, r) => evaluateDueHours({ bus, db, clock, logger: silent }, { replica: `r${r}`, onUser })));
    progress.stop();
    const wallMs = performance.now() - started;
    const total = reports.reduce((a, r) => ({ users: a.users + r.users, hours: a.hours + r.hours, planned: a.planned + r.planned, ignored: a.ignored + r.ignored }), { users: 0, hours: 0, planned: 0, ignored: 0 });
    const rows = await db.selectFrom('schedule').select(['evaluations']).execute();
    const once = rows.every((r) => Number(r.evaluations) === opts.hours);
    await Promise.all(projection.map((c) => c.stop()));
    const js = await measureJetStream({ natsUrl: env.NATS_URL, namespace: ns, messages: 500, lookups: 500, subjects: 50 });
    const dbCosts = await measureDatabase(raw, { via: 'pg.Client on DATABASE_URL', schema: `${ns}_raw`, selects: 500, inserts: 200 });
    const sortedIdle = [...idle].sort((a, b) => a - b);
    const sortedUser = [...perUser].sort((a, b) => a - b);

    console.log(`\nbench:retention — ${opts.users} users × ${opts.hours} h behind, ${opts.replicas} replica(s), ${ZONES.length} zones, stages ${[...new Set(STAGES)].join('/')}\n`);
    for (const line of table([
      ['figure', 'value'],
      ['user-hours evaluated', String(total.hours)],
      ['each user-hour exactly once', once ? 'yes' : 'NO'],
      ['proactive messages planned (JetStream appends)', String(total.planned)],
      ['catch-up wall time', `${fmt(wallMs / 1000, 2)} s`],
      ['user-hours per second', fmt(perSecond(total.hours, wallMs), 0)],
      ['users per second', fmt(perSecond(total.users, wallMs), 0)],
      [`one user's ${opts.hours} h: p50 / p99`, `${fmt(percentile(sortedUser, 50), 2)} / ${fmt(percentile(sortedUser, 99), 2)} ms`],
      ['idle poll (nothing due): p50 / p99', `${fmt(percentile(sortedIdle, 50), 2)} / ${fmt(percentile(sortedIdle, 99), 2)} ms`],
      ['raw JetStream publish+ack: p50 / p99', `${fmt(js.publishAck.us.p50 / 1000, 2)} / ${fmt(js.publishAck.us.p99 / 1000, 2)} ms`],
      ['raw JetStream append (expect last seq): p50 / p99', `${fmt(js.appendExpect.us.p50 / 1000, 2)} / ${fmt(js.appendExpect.us.p99 / 1000, 2)} ms`],
      ['raw Postgres SELECT 1: p50 / p99', `${fmt(dbCosts.select1.us.p50 / 1000, 3)} / ${fmt(dbCosts.select1.us.p99 / 1000, 3)} ms`],
      ['raw Postgres INSERT (commit): p50 / p99', `${fmt(dbCosts.insert.us.p50 / 1000, 3)} / ${fmt(dbCosts.insert.us.p99 / 1000, 3)} ms`],
    ]))
      console.log(line);
    if (opts.json) {
      await writeFile(opts.json, JSON.stringify({ ...opts, wallMs, total, once, perUserMs: { p50: percentile(sortedUser, 50), p99: percentile(sortedUser, 99) }, idleMs: { p50: percentile(sortedIdle, 50), p99: percentile(sortedIdle, 99) }, jetstream: js, postgres: dbCosts }, null, 2));
    }
    if (!once) process.exitCode = 1;
  } finally {
    await withTimeout('drop the bench schema', dropSchema(database, schema));
    await withTimeout('close Postgres', Promise.all([database.close(), raw.end()]));
    await withTimeout('close NATS', bus.close());
  }
}

main().catch((err: unknown) => {
  log(`bench:retention failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
