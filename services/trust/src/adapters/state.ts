import type { belief } from '@hearth/proto';
import { ACTORS, initialActorTrust, type Actor, type ActorTrust, type BeliefView, type DecisionRecord, type FeedbackEntry, type FeedbackReason, type GardenerAction, type Tag } from '@hearth/trust';
import type { Kysely, Selectable } from 'kysely';
import type { DecisionsTable, FeedbackTable, TrustDb } from '../db.js';
import { tagId } from '../ids.js';

// Reads of the projection (and of belief-graph's answer) into the domain's types:
// the only place the domain's inputs come from.

/** A companion belief as GetCompanionBeliefs gives it. */
export function beliefViewOf(b: belief.CompanionBelief): BeliefView {
  return {
    beliefId: b.beliefId,
    canonicalText: b.canonicalText,
    embedding: b.embedding,
    embeddingModel: b.embeddingModel,
    stream: b.stream,
    activation: b.activation,
    confidence: b.confidence,
    seeded: b.seeded,
    level: b.level,
    openConflicts: b.openConflicts,
  };
}

export function entryOf(row: Pick<Selectable<FeedbackTable>, 'feedback_id' | 'tag' | 'actor' | 'belief_id' | 'alignment' | 'weight' | 'applied' | 'reason' | 'created_at'>): FeedbackEntry {
  return {
    feedbackId: row.feedback_id,
    tag: row.tag as Tag,
    actor: row.actor as Actor,
    beliefId: row.belief_id,
    alignment: row.alignment,
    weight: row.weight,
    applied: row.applied,
    reason: row.reason as FeedbackReason,
    at: row.created_at,
  };
}

/** The user's tags (both actors, or one) recorded in (from, to], oldest first. */
export async function loadFeedback(db: Kysely<TrustDb>, userId: string, from: Date, to: Date, actor?: Actor): Promise<FeedbackEntry[]> {
  const rows = await db
    .selectFrom('feedback')
    .select(['feedback_id', 'tag', 'actor', 'belief_id', 'alignment', 'weight', 'applied', 'reason', 'created_at'])
    .where('user_id', '=', userId)
    .where('created_at', '>', from)
    .where('created_at', '<=', to)
    .$if(actor !== undefined, (q) => q.where('actor', '=', actor!))
    .orderBy('created_at')
    .orderBy('position')
    .execute();
  return rows.map(entryOf);
}

/** T_actor of both actors (0.5 and no update for one never updated). */
export async function loadActors(db: Kysely<TrustDb>, userId: string): Promise<Record<Actor, ActorTrust>> {
  const rows = await db.selectFrom('actors').selectAll().where('user_id', '=', userId).execute();
  const out = Object.fromEntries(ACTORS.map((a) => [a, initialActorTrust(a)])) as Record<Actor, ActorTrust>;
  for (const r of rows) {
    if ((ACTORS as readonly string[]).includes(r.actor)) out[r.actor as Actor] = { actor: r.actor as Actor, trust: r.trust, updates: r.updates, updatedAt: r.updated_at };
  }
  return out;
}

export function decisionOf(row: Selectable<DecisionsTable>): DecisionRecord {
  return {
    decisionId: row.decision_id,
    beliefId: row.belief_id,
    action: row.action as GardenerAction,
    at: row.created_at,
    coherence: row.coherence,
    conflicts: row.conflicts,
    confidence: row.confidence,
    level: row.level,
    doubtRate: row.doubt_rate,
    contributions: row.contributions as DecisionRecord['contributions'],
  };
}

/** The user's belief in their graph (GetBeliefs, holder user): its confidence and the open conflicts touching it; null when not listed. */
export function userBeliefOf(graph: belief.GetBeliefsResponse, beliefId: string): { confidence: number; openConflicts: number } | null {
  const node = graph.nodes.find((n) => n.beliefId === beliefId);
  if (!node) return null;
  return { confidence: node.confidence, openConflicts: graph.conflicts.filter((c) => c.beliefIds.includes(beliefId)).length };
}

/** Whether trust already decided this (a redelivered cause, another replica). */
export async function decisionRecorded(db: Kysely<TrustDb>, decisionId: string): Promise<boolean> {
  const row = await db.selectFrom('decisions').select('decision_id').where('decision_id', '=', decisionId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether the turn of this user message was already recorded (a redelivery,
 * another replica): a recorded turn has at least one tag, and its first tag's id
 * derives from the message.
 */
export async function turnRecorded(db: Kysely<TrustDb>, userId: string, messageId: string): Promise<boolean> {
  const row = await db.selectFrom('feedback').select('feedback_id').where('feedback_id', '=', tagId(messageId, 0)).where('user_id', '=', userId).executeTakeFirst();
  return row !== undefined;
}
