import type { Bus } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import type { Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import type { IngressDb } from '../db.js';
import type { ControlsValue } from '../users/controls.js';
import { exportBeliefsView } from './beliefs-view.js';
import { adminAccessPages, conversationPages, exportDocument } from './export.js';
import { jsonChunks } from './json-stream.js';
import type { MemoryView } from './memory-view.js';
import type { KnownUserServiceReads } from './service-reads.js';
import { trustView } from './trust-view.js';
import { uncertaintiesView } from './uncertainties-view.js';
import type { Profile } from './user-reads.js';

export interface DataExportDeps {
  bus: Bus;
  db: Kysely<IngressDb>;
  clock: Clock;
  logger: Logger;
  /** The profile: 404 for an unknown user, so the reads after it need not check again. */
  profile: (userId: string) => Promise<Profile>;
  controls: (userId: string) => Promise<ControlsValue>;
  /** Other services' reads, without the users-row check (the profile made it). */
  services: KnownUserServiceReads;
  /** The memories read, without the users-row check. */
  memories: (userId: string, all: boolean) => Promise<{ memories: MemoryView[] }>;
}

/** GET /v1/me/export (ARCHITECTURE.md "Personal data, export and erasure"). */
export function createDataExport(deps: DataExportDeps) {
  const { bus, db, clock, services } = deps;

  return {
    /**
     * Everything held about the user, as JSON text written as it is read. The
     * small parts are read first, so a missing user (404) or a service that is
     * down (503) is an error answer; what fails after the first byte ends the
     * iteration with the error, and the edge closes the connection.
     */
    async exportData(userId: string): Promise<AsyncIterable<string>> {
      const exportedAt = clock.now();
      const user = await deps.profile(userId);
      const [controls, relationship, memoryList, ownBeliefs, uncertainties, trustState, retention] = await Promise.all([
        deps.controls(userId),
        services.relationship(userId),
        deps.memories(userId, true),
        // The user's own beliefs only: the companion's are not the user's data (API.md).
        services.beliefs(userId, 'user'),
        services.uncertainties(userId),
        services.trust(userId),
        services.retention(userId),
      ]);
      const doc = exportDocument(
        {
          exported_at: exportedAt.toISOString(),
          user,
          controls,
          relationship,
          memories: memoryList.memories,
          beliefs: exportBeliefsView(ownBeliefs),
          uncertainties: uncertaintiesView(uncertainties),
          trust: trustView(trustState),
          retention,
        },
        conversationPages(db, userId),
        adminAccessPages(bus, userId),
      );
      const logger = deps.logger;
      return (async function* () {
        try {
          yield* jsonChunks(doc);
        } catch (err) {
          logger.error({ err, userId }, 'export failed while streaming; the connection is closed');
          throw err;
        }
      })();
    },
  };
}
