// Dead letters: events a service quarantined after its retries (ARCHITECTURE.md
// "Poison events never wedge a user"). Lists them, and redrives them: asks each
// consumer that gave up to apply the event now (once the cause is fixed).
// Needs the services running (they answer the redrive); reads NATS only.
//
//   pnpm dlq list [--all] [--json]    quarantined events (--all: redriven ones too)
//   pnpm dlq redrive <event_id>       one event, every consumer that quarantined it
//   pnpm dlq redrive --all            every quarantined event, with a progress bar
import { Command } from 'commander';
import cliProgress from 'cli-progress';
import { Bus, listDeadLetters, redriveDeadLetter, type DeadLetterEntry, type RedriveResult } from '@hearth/bus';
import { eventEncryption, loadHostConfig } from '@hearth/host';
import { createLogger } from '@hearth/telemetry';

const config = loadHostConfig();
const log = createLogger({ service: 'dlq', level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, stderr: true });

async function withBus<T>(fn: (bus: Bus) => Promise<T>): Promise<T> {
  const bus = await Bus.connect({ url: config.NATS_URL, name: 'hearth-dlq', user: config.NATS_USER, pass: config.NATS_PASSWORD, namespace: config.HEARTH_NAMESPACE, logger: log, encryption: eventEncryption(config, log) });
  try {
    return await fn(bus);
  } finally {
    await bus.close();
  }
}

function row(d: DeadLetterEntry): string {
  const user = d.userId || '(global)';
  return `${d.quarantinedAt.toISOString()}  ${d.eventId}  ${d.type}  user ${user}  ${d.consumer}  ×${d.deliveries}${d.redriven ? '  [redriven]' : ''}\n    ${d.error}`;
}

function summary(eventId: string, results: RedriveResult[]): string {
  return results.map((r) => `${eventId}  ${r.consumer}: ${r.redriven ? 'redriven' : `still quarantined (${r.error ?? 'failed'})`}`).join('\n');
}

const program = new Command('dlq').description('List and redrive quarantined events (the dead-letter stream of this namespace)');

program
  .command('list')
  .description('quarantined events, oldest first')
  .option('--all', 'include events redriven since', false)
  .option('--json', 'print JSON', false)
  .action(async (opts: { all: boolean; json: boolean }) => {
    const entries = (await withBus(listDeadLetters)).filter((d) => opts.all || !d.redriven);
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
      return;
    }
    if (entries.length === 0) {
      console.log(`no quarantined events in namespace ${config.HEARTH_NAMESPACE}`);
      return;
    }
    for (const d of entries) console.log(row(d));
    console.log(`${entries.length} quarantined event(s) in namespace ${config.HEARTH_NAMESPACE}`);
  });

program
  .command('redrive')
  .description('apply quarantined events after all: one by id, or --all')
  .argument('[event_id]', 'the event to redrive')
  .option('--all', 'every quarantined event', false)
  .action(async (eventId: string | undefined, opts: { all: boolean }) => {
    if (!eventId === !opts.all) program.error('give exactly one of <event_id> or --all');
    const failed = await withBus(async (bus) => {
      if (eventId) {
        const results = await redriveDeadLetter(bus, eventId).catch((err: Error) => program.error(err.message));
        console.log(summary(eventId, results));
        return results.some((r) => !r.redriven) ? 1 : 0;
      }
      const ids = [...new Set((await listDeadLetters(bus)).filter((d) => !d.redriven).map((d) => d.eventId))];
      if (ids.length === 0) {
        console.log('no quarantined events to redrive');
        return 0;
      }
      const bar = new cliProgress.SingleBar({ format: 'redrive [{bar}] {value}/{total} events | {failed} still quarantined', stream: process.stderr }, cliProgress.Presets.shades_classic);
      bar.start(ids.length, 0, { failed: 0 });
      const lines: string[] = [];
      let stillFailed = 0;
      for (const id of ids) {
        const results = await redriveDeadLetter(bus, id).catch((err: Error) => [{ service: 'ingress' as const, consumer: '?', redriven: false, error: err.message }]);
        if (results.some((r) => !r.redriven)) stillFailed++;
        lines.push(summary(id, results));
        bar.increment(1, { failed: stillFailed });
      }
      bar.stop();
      console.log(lines.join('\n'));
      console.log(`${ids.length - stillFailed} of ${ids.length} event(s) redriven`);
      return stillFailed > 0 ? 1 : 0;
    });
    process.exitCode = failed;
  });

await program.parseAsync();
