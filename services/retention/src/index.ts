import { randomUUID } from 'node:crypto';
import { loadConfig } from '@hearth/config';
import { serveQueries } from '@hearth/bus';
import { retention } from '@hearth/proto';
import type { ServiceDefinition } from '@hearth/host';
import { startProjection, startReactor } from '@hearth/store';
import type { Kysely } from 'kysely';
import { migration as m0001 } from '../migrations/2026_11_23_0001_retention.js';
import { retentionEnvSchema } from './config.js';
import type { RetentionDb } from './db.js';
import { createAcknowledgeReactor } from './handlers/acknowledge.js';
import { retentionProjection } from './projections/retention.js';
import { createGetRetentionQuery } from './queries/get-retention.js';
import { startScheduler } from './schedule/scheduler.js';

/**
 * The retention service (turn-pipeline §14): hourly eligibility on the
 * (virtual) clock, caps, backoff and attribution; it plans proactive messages,
 * which the orchestrator renders as turns with source = retention.
 */
export const service: ServiceDefinition = {
  name: 'retention',
  migrations: { '2026_11_23_0001_retention': m0001 },
  projections: [retentionProjection],
  async create(ctx) {
    const db = ctx.db as Kysely<RetentionDb>;
    const env = loadConfig(retentionEnvSchema, ctx.environment);
    // Names this process's leases on users (several replicas share the schedule).
    const replica = `${process.pid}-${randomUUID().slice(0, 8)}`;
    return {
      async start() {
        await serveQueries(ctx.bus, retention.RetentionQueriesDefinition, { GetRetention: createGetRetentionQuery(db) });
        const consumers = [
          ...(await startProjection(ctx.bus, db, 'retention', retentionProjection)),
          ...(await startReactor(ctx.bus, db, 'retention', createAcknowledgeReactor({ bus: ctx.bus, db, logger: ctx.logger }))),
        ];
        ctx.logger.info({ pollMs: env.RETENTION_POLL_MS, replica }, 'retention evaluates every user once per hour of the clock');
        return [...consumers, startScheduler({ bus: ctx.bus, db, clock: ctx.clock, logger: ctx.logger, pollMs: env.RETENTION_POLL_MS, replica })];
      },
    };
  },
};

