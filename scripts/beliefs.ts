// The belief graph's admin tools (self-belief-decomposer.md §6, §7, §8.3).
//
//   pnpm beliefs backfill [--user <id>]        decompose the existing log (resumable; progress on stderr)
//   pnpm beliefs rollback --version <hash>     compensating events removing a version's occurrences (§6)
//   pnpm beliefs merge --user <id> --link <id> merge the two nodes a tentative link joins (§8.3)
//   pnpm beliefs version                       the extractor version this configuration gives
//
// They act through the same code as the service: the backfill runs the live
// reactor (and the projection it waits on) over the ingress and orchestrator
// logs, so it gives the same graph as live and skips what is already there.
import cliProgress from 'cli-progress';
import { Command } from 'commander';
import { Bus } from '@hearth/bus';
import { isUuid, queryClients } from '@hearth/events';
import { eventEncryption, loadHostConfig, schemaFor } from '@hearth/host';
import { migrateSchema, openDatabase, schemaDb, startProjection } from '@hearth/store';
import { createLogger } from '@hearth/telemetry';
import type { BeliefDb } from '../services/belief-graph/src/db.js';
import { backfill, beliefRuntime, beliefsProjection, service as beliefGraph } from '../services/belief-graph/src/index.js';

// Read when a command needs NATS or the database (`version` needs neither).
let host: ReturnType<typeof loadHostConfig> | undefined;
const hostConfig = () => (host ??= loadHostConfig());
const log = createLogger({ service: 'beliefs', level: 'warn', stderr: true });

async function connect(name: string): Promise<Bus> {
  const config = hostConfig();
  return Bus.connect({ url: config.NATS_URL, name, user: config.NATS_USER, pass: config.NATS_PASSWORD, namespace: config.HEARTH_NAMESPACE, logger: log, encryption: eventEncryption(config, log) });
}

function uuid(value: string): string {
  if (!isUuid(value)) throw new Error(`not a uuid: ${value}`);
  return value;
}

const program = new Command('beliefs').description('Belief graph admin: backfill, rollback, merge');

program
  .command('backfill')
  .description('Decompose every user and assistant message and persona seed already in the log (skips what this extractor version already did)')
  .option('--user <id>', 'only this user', uuid)
  .action(async (opts: { user?: string }) => {
    const config = hostConfig();
    const bus = await connect('hearth-beliefs-backfill');
    const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: config.PGLITE_DIR });
    const schema = schemaFor(config.HEARTH_NAMESPACE, 'belief-graph');
    const db = schemaDb<BeliefDb>(database, schema);
    let code = 0;
    try {
      await migrateSchema(database, schema, beliefGraph.migrations);
      // As the services declare them at start: a namespace where nothing ran yet has an empty log.
      await bus.ensureStreams(['ingress', 'orchestrator', 'belief-graph', 'uncertainty', 'trust']);
      const runtime = beliefRuntime(process.env, log);
      console.error(`[beliefs] backfill with extractor version ${runtime.extractorVersion}`);
      // The reactor decides on the projection: run it here too (alongside a live service it is one more replica).
      const projection = await startProjection(bus, db, 'belief-graph', beliefsProjection);
      const bars = new Map<string, cliProgress.SingleBar>();
      let last = '';
      try {
        const r = await backfill(
          { bus, db, logger: log, ...runtime },
          {
            ...(opts.user ? { userId: opts.user } : {}),
            onProgress: ({ source, seq, total }) => {
              if (process.stderr.isTTY) {
                let bar = bars.get(source);
                if (!bar) {
                  for (const b of bars.values()) b.stop();
                  bar = new cliProgress.SingleBar({ format: `${source.padEnd(13)} {bar} {value}/{total} seq`, stream: process.stderr }, cliProgress.Presets.shades_classic);
                  bar.start(Math.max(total, 1), 0);
                  bars.set(source, bar);
                }
                bar.update(Math.min(seq, total));
              } else if (source !== last || seq % 1000 === 0) {
                console.error(`[beliefs] ${source}: ${seq}/${total}`);
                last = source;
              }
            },
          },
        );
        for (const b of bars.values()) b.stop();
        console.error(`[beliefs] ${r.events} events read, ${r.reacted} not read before by this version`);
      } finally {
        for (const b of bars.values()) b.stop();
        for (const c of projection) await c.stop();
      }
      const done = await db.selectFrom('sources').select((eb) => eb.fn.countAll<string>().as('n')).where('extractor_version', '=', runtime.extractorVersion).executeTakeFirstOrThrow();
      process.stdout.write(`${done.n} sources decomposed under extractor version ${runtime.extractorVersion}\n`);
    } catch (err) {
      console.error(`backfill stopped: ${(err as Error).message} (run it again to resume)`);
      code = 1;
    } finally {
      await bus.close();
      await database.close();
    }
    process.exit(code);
  });

program
  .command('rollback')
  .description("Remove an extractor version's occurrences, user by user, as compensating events (§6)")
  .requiredOption('--version <hash>', 'the extractor version to roll back')
  .option('--reason <text>', 'recorded in each event', 'rolled back by an operator')
  .action(async (opts: { version: string; reason: string }) => {
    const bus = await connect('hearth-beliefs-rollback');
    const queries = queryClients(bus, 30_000).belief;
    let code = 0;
    try {
      const users = (await queries.ListBeliefUsers({ extractorVersion: opts.version })).userIds;
      const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'users {bar} {value}/{total}', stream: process.stderr }, cliProgress.Presets.shades_classic) : undefined;
      bar?.start(Math.max(users.length, 1), 0);
      let removed = 0;
      for (const [i, userId] of users.entries()) {
        removed += (await queries.RollbackExtractorVersion({ userId, extractorVersion: opts.version, reason: opts.reason })).occurrences;
        bar?.update(i + 1);
      }
      bar?.stop();
      process.stdout.write(`${removed} occurrences of version ${opts.version} removed for ${users.length} users\n`);
    } catch (err) {
      console.error(`rollback stopped: ${(err as Error).message} (run it again to resume)`);
      code = 1;
    } finally {
      await bus.close();
    }
    process.exit(code);
  });

program
  .command('merge')
  .description('Merge the two nodes a tentative link joins (never automatic, §9.4)')
  .requiredOption('--user <id>', 'the user', uuid)
  .requiredOption('--link <id>', 'the tentative link', uuid)
  .option('--reason <text>', 'recorded in the event', 'merged by an operator')
  .action(async (opts: { user: string; link: string; reason: string }) => {
    const bus = await connect('hearth-beliefs-merge');
    let code = 0;
    try {
      const r = await queryClients(bus).belief.MergeBeliefs({ userId: opts.user, linkId: opts.link, reason: opts.reason });
      if (!r.found) {
        console.error(`no link ${opts.link} for user ${opts.user}`);
        code = 1;
      } else if (r.error) {
        console.error(`not merged: ${r.error}`);
        code = 1;
      } else {
        process.stdout.write(`merged ${r.mergedBeliefId} into ${r.keptBeliefId}\n`);
      }
    } finally {
      await bus.close();
    }
    process.exit(code);
  });

program
  .command('version')
  .description('Print the extractor version (§6) of this configuration (LLM_* and embeddings settings)')
  .action(() => {
    process.stdout.write(`${beliefRuntime(process.env).extractorVersion}\n`);
  });

try {
  await program.parseAsync();
} catch (err) {
  // A bad configuration or an unreachable server: say what, without a stack.
  console.error(`beliefs: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(2);
}
