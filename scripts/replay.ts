// Rebuilds projections from the event log into fresh schemas and compares them
// with the live rows (ARCHITECTURE invariant 3), and says how fast each one
// rebuilt: events/s of reading and applying (issue 20 asks ≥ 20,000 per
// projection; `pnpm bench:replay` measures it beside the raw figures). Exit code 1
// when any differs.
//
//   pnpm replay                       every projection of every service
//   pnpm replay --service ingress     one service
//   pnpm replay --projection turns    one projection (with --service)
//   pnpm replay --keep --json out.json
import { writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import cliProgress from 'cli-progress';
import { Bus, SERVICE_NAMES, type ServiceName } from '@hearth/bus';
import { eventEncryption, loadHostConfig, schemaFor } from '@hearth/host';
import { openDatabase, replayProjection, type ReplayReport } from '@hearth/store';
import { createLogger } from '@hearth/telemetry';
import { ALL_SERVICES } from '../services/registry.js';

function service(value: string, previous: ServiceName[] = []): ServiceName[] {
  if (!(SERVICE_NAMES as readonly string[]).includes(value)) {
    throw new InvalidArgumentError(`unknown service '${value}'; known: ${SERVICE_NAMES.join(', ')}`);
  }
  return [...previous, value as ServiceName];
}

/** Events read per second of the rebuild (reading and applying; not the schema setup or the diff). */
function eventsPerSec(r: ReplayReport): number {
  return r.timings.rebuildMs > 0 ? (r.events * 1000) / r.timings.rebuildMs : Number.NaN;
}

const program = new Command('replay')
  .description('Rebuild projections from the event log into fresh schemas and diff them with the live ones')
  .option('-s, --service <name>', 'a service to replay (repeatable; default: all)', service)
  .option('-p, --projection <name>', 'only this projection')
  .option('--keep', 'keep the replay schemas (<schema>__replay) for inspection', false)
  .option('--json <file>', 'also write the reports as JSON')
  .parse();

const opts = program.opts<{ service?: ServiceName[]; projection?: string; keep: boolean; json?: string }>();
const config = loadHostConfig();
const log = createLogger({ service: 'replay', level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, stderr: true });
const services = ALL_SERVICES.filter((s) => !opts.service || opts.service.includes(s.name));
const jobs = services.flatMap((s) => s.projections.filter((p) => !opts.projection || p.name === opts.projection).map((p) => ({ s, p })));
if (jobs.length === 0) {
  console.error(`nothing to replay: no projection ${opts.projection ?? ''} in ${services.map((s) => s.name).join(', ')}`);
  process.exit(2);
}
if (!config.DATABASE_URL) {
  console.error('[replay] DATABASE_URL is unset: using the embedded PGlite in ' + config.PGLITE_DIR + ' — stop Hearth first, PGlite is single-process.');
}

const bus = await Bus.connect({ url: config.NATS_URL, name: 'hearth-replay', user: config.NATS_USER, pass: config.NATS_PASSWORD, namespace: config.HEARTH_NAMESPACE, logger: log, encryption: eventEncryption(config, log) });
const database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: config.PGLITE_DIR });
const reports: ReplayReport[] = [];
const tty = process.stderr.isTTY;
try {
  for (const { s, p } of jobs) {
    const label = `${s.name}/${p.name}`;
    const bar = tty
      ? new cliProgress.SingleBar({ format: `${label.padEnd(28)} {bar} {percentage}% | {value}/{total} seq`, hideCursor: true }, cliProgress.Presets.shades_classic)
      : undefined;
    let started = false;
    let lastPct = -1;
    const report = await replayProjection({
      bus,
      database,
      service: s.name,
      schema: schemaFor(config.HEARTH_NAMESPACE, s.name),
      projection: p,
      migrations: s.migrations,
      keep: opts.keep,
      onProgress: (done, total) => {
        if (bar) {
          if (!started) bar.start(Math.max(total, 1), 0);
          started = true;
          bar.update(Math.min(done, Math.max(total, 1)));
        } else {
          const pct = total === 0 ? 100 : Math.floor((done / total) * 10) * 10;
          if (pct !== lastPct) console.error(`[replay] ${label}: ${pct}% (${done}/${total})`);
          lastPct = pct;
        }
      },
    });
    bar?.stop();
    reports.push(report);
    const verdict = report.equal ? 'equal' : 'DIFFERENT';
    const rate = eventsPerSec(report);
    console.log(
      `${label.padEnd(28)} ${String(report.events).padStart(8)} events  ${(report.timings.rebuildMs / 1000).toFixed(2).padStart(7)} s  ` +
        `${(Number.isFinite(rate) ? Math.round(rate).toLocaleString('en-US') : 'n/a').padStart(9)} events/s  ${verdict}`,
    );
    for (const t of report.tables) {
      console.log(`  ${t.table.padEnd(26)} live ${t.liveRows}  replay ${t.replayRows}  only-live ${t.onlyLive}  only-replay ${t.onlyReplay}`);
      for (const sample of t.samples) console.log(`    ${JSON.stringify(sample)}`);
    }
  }
  if (opts.json) await writeFile(opts.json, JSON.stringify(reports.map((r) => ({ ...r, eventsPerSec: eventsPerSec(r) })), null, 2));
} finally {
  await bus.close();
  await database.close();
}
const different = reports.filter((r) => !r.equal);
console.log(different.length === 0 ? `all ${reports.length} projections replay equal to live` : `${different.length} of ${reports.length} projections differ`);
process.exit(different.length === 0 ? 0 : 1);
