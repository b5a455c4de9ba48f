import type { Bus } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { queryClients } from '@hearth/events';
import type { Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import { INGRESS } from '../config.js';
import type { IngressDb } from '../db.js';
import { KeyedQueue } from '../users/keyed-queue.js';
import { createAdminViews } from './admin-views.js';
import { createChat } from './chat.js';
import { createControls } from './controls.js';
import { createDataExport } from './data-export.js';
import { createErasures } from './erasure.js';
import type { FailedTurns } from './failed-turns.js';
import { createMemories } from './memories.js';
import { createOnboarding } from './onboarding.js';
import { createServiceReads } from './service-reads.js';
import { createUserReads } from './user-reads.js';
import type { TurnWaiters } from './waiters.js';

export interface IngressDeps {
  bus: Bus;
  db: Kysely<IngressDb>;
  clock: Clock;
  logger: Logger;
  waiters: TurnWaiters;
  /** Turns a quarantine stopped (see failed-turns.ts). */
  failedTurns: FailedTurns;
  turnTimeoutMs: number;
}

/**
 * The ingress use cases behind the HTTP API, composed from one factory per use
 * case, each given only what it uses.
 */
export function createIngressApp(deps: IngressDeps) {
  const { bus, db, clock, logger } = deps;
  // The other services' queries, through the clients generated from proto/.
  const queries = queryClients(bus, INGRESS.queryTimeoutMs);
  // A user's appends from this process, one at a time: concurrent sends (a phone
  // flushing its offline queue) must not exhaust the append's conflict retries.
  const userAppends = new KeyedQueue();
  const users = createUserReads({ bus, db });
  const services = createServiceReads({ users, queries, logger });

  const onboarding = createOnboarding({ bus, clock, users });
  const chat = createChat({ bus, db, clock, users, userAppends, waiters: deps.waiters, failedTurns: deps.failedTurns, turnTimeoutMs: deps.turnTimeoutMs });
  const memories = createMemories({ users, memory: queries.memory, logger });
  const controls = createControls({ bus, db, clock, users, userAppends });
  const erasures = createErasures({ bus, db, clock, logger });
  const admin = createAdminViews({ bus, db, clock, logger, services, erasureEvents: erasures.erasureEvents, userAppends });
  const dataExport = createDataExport({
    bus,
    db,
    clock,
    logger,
    profile: onboarding.profile,
    controls: controls.controls,
    // After the profile found the user, its parts need not look the user up again.
    services: services.ofKnownUser,
    memories: memories.memoriesOfKnownUser,
  });

  return {
    ...onboarding,
    ...chat,
    memories: memories.memories,
    forgetMemory: memories.forgetMemory,
    ...controls,
    relationship: services.relationship,
    ...admin,
    exportData: dataExport.exportData,
    // One at a time per user with the user's other commands (a repeated DELETE, a message in flight).
    eraseMe: (userId: string) => userAppends.run(userId, () => erasures.eraseMe(userId)),
  };
}

export type IngressApp = ReturnType<typeof createIngressApp>;
