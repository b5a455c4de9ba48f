// Wipes one namespace's local data: its JetStream streams and KV buckets, and
// its schemas (Postgres) or the embedded database directory (PGlite). For a
// development machine whose data predates a change of the event format (the
// payload encryption of the privacy issue): `scripts/start --reset`.
import { rm } from 'node:fs/promises';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import type { HostConfig } from '@hearth/host';

export interface ResetReport {
  streams: string[];
  schemas: string[];
  pgliteDir?: string;
}

export async function resetLocalData(config: HostConfig): Promise<ResetReport> {
  if (config.HEARTH_ENV === 'production') {
    throw new Error('--reset deletes every event and row of the namespace: it runs with HEARTH_ENV=dev or test only');
  }
  const ns = config.HEARTH_NAMESPACE;
  const nc = await connect({ servers: config.NATS_URL.split(','), name: 'hearth-reset', ...(config.NATS_USER ? { user: config.NATS_USER, pass: config.NATS_PASSWORD ?? '' } : {}) });
  const report: ResetReport = { streams: [], schemas: [] };
  try {
    const jsm = await jetstreamManager(nc);
    for await (const name of jsm.streams.names()) {
      if (name.startsWith(`${ns}_`.toUpperCase()) || name.startsWith(`KV_${ns}_`)) report.streams.push(name);
    }
    for (const name of report.streams) await jsm.streams.delete(name);
  } finally {
    await nc.drain().catch(() => nc.close());
  }
  if (config.DATABASE_URL) {
    const c = new pg.Client({ connectionString: config.DATABASE_URL });
    await c.connect();
    try {
      // starts_with, not LIKE: `_` is a LIKE wildcard.
      const { rows } = await c.query<{ nspname: string }>('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname', [`${ns}_`]);
      for (const r of rows) await c.query(`DROP SCHEMA IF EXISTS "${r.nspname.replace(/"/g, '""')}" CASCADE`);
      report.schemas = rows.map((r) => r.nspname);
    } finally {
      await c.end();
    }
  } else if (!config.PGLITE_DIR.startsWith('memory://')) {
    await rm(config.PGLITE_DIR, { recursive: true, force: true });
    report.pgliteDir = config.PGLITE_DIR;
  }
  return report;
}
