import { appendDecided, draft, payloadOf, type Bus, type StoredEvent } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import type { Embedder } from '@hearth/llm';
import { requirePosition, type Reactor } from '@hearth/store';
import { counter, type Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import { WRITEBACK } from '../config.js';
import type { MemoryDb } from '../db.js';
import { clarifiedSides, decideClarified, type ResolvedSide } from '../domain/clarified.js';
import { withVector } from '../domain/writeback.js';
import type { MemoryStatus, MemoryType } from '../domain/types.js';
import { memoriesProjection } from '../projections/memories.js';
import { embedRecords } from './writeback.js';

export interface ClarifiedDeps {
  bus: Bus;
  db: Kysely<MemoryDb>;
  embedder: Embedder;
  logger?: Logger;
}

const restored = counter('hearth_memory_clarified_total', 'Resolutions (user_clarified, evidence_resolved) that made a superseded memory ACTIVE again');

/** The id of the record a resolution restores: one per resolution event, so a redelivery appends nothing new. */
export function clarifiedMemoryId(resolutionEventId: string): string {
  return deriveId('memory', 'clarified', resolutionEventId);
}

async function sidesOf(db: Kysely<MemoryDb>, userId: string, ids: readonly string[]): Promise<Map<string, ResolvedSide>> {
  const rows = await db
    .selectFrom('memories')
    .select(['memory_id', 'ai_friend_id', 'type', 'memory_key', 'memory_value', 'confidence', 'status', 'topic_ids', 'occurred_on', 'occurred_precision', 'occurred_text'])
    .where('user_id', '=', userId)
    .where('memory_id', 'in', ids)
    .execute();
  return new Map(
    rows.map((r) => [
      r.memory_id,
      {
        memoryId: r.memory_id,
        aiFriendId: r.ai_friend_id,
        type: r.type as MemoryType,
        key: r.memory_key,
        value: r.memory_value,
        confidence: r.confidence,
        status: r.status as MemoryStatus,
        topicIds: r.topic_ids,
        occurredOn: r.occurred_on,
        occurredPrecision: r.occurred_precision,
        occurredText: r.occurred_text,
      },
    ]),
  );
}

/**
 * UncertaintyResolved (user_clarified, evidence_resolved) → resolution feedback
 * on the user's memory chain (domain/clarified): a winner memory had superseded
 * is recorded again, superseding the loser, with the embedding recorded as
 * write-back records it. Only the user's own records count; a winner already
 * ACTIVE, or anything else, appends nothing. Decided on the memory projection
 * as it holds the user's whole memory chain.
 */
export function createClarifiedReactor(deps: ClarifiedDeps): Reactor {
  const { bus, db } = deps;
  return {
    name: 'clarified',
    sources: ['uncertainty'],
    types: [Events.UncertaintyResolved.name],
    async react(event: StoredEvent) {
      if (event.type !== Events.UncertaintyResolved.name) return;
      const resolution = payloadOf(event, Events.UncertaintyResolved);
      const sides = clarifiedSides(resolution);
      if (!sides) return;
      const memoryId = clarifiedMemoryId(event.id);
      const userId = event.userId;
      await appendDecided(bus, 'memory', userId, async (last) => {
        if (last?.id === memoryId) return [];
        await requirePosition(db, memoriesProjection.name, last, { timeoutMs: WRITEBACK.projectionWaitMs });
        // Recorded before, past the dedup window: nothing new to decide.
        if (await db.selectFrom('memories').select('memory_id').where('memory_id', '=', memoryId).executeTakeFirst()) return [];
        const records = await sidesOf(db, userId, [sides.winnerId, sides.loserId]);
        const suppressed = new Set((await db.selectFrom('suppressed_keys').select('memory_key').where('user_id', '=', userId).execute()).map((r) => r.memory_key));
        const record = decideClarified(resolution, memoryId, records.get(sides.winnerId), records.get(sides.loserId), suppressed);
        if (!record) return [];
        const vector = (await embedRecords(deps, [record])).get(record.memoryKey);
        restored.add(1, { strategy: resolution.strategy });
        return [
          draft(
            Events.MemoryRecorded,
            withVector(record, vector, deps.embedder.model),
            { userId, id: memoryId, causationId: event.id, correlationId: event.correlationId || resolution.sourceMessageId, occurredAt: event.occurredAt },
          ),
        ];
      });
    },
  };
}
