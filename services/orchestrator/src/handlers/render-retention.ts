import { appendDecided, draft, payloadOf, TerminalError, type Bus, type EventDraft, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events, isUuid, type RetentionPlanned } from '@hearth/events';
import { requirePosition, type Reactor } from '@hearth/store';
import { counter, type Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import type { MemoryPort } from '../adapters/memory.js';
import { createUncertaintyClient, type UncertaintyPort } from '../adapters/uncertainty.js';
import { GATES, RECIPE, RETENTION, UNCERTAINTY } from '../config.js';
import type { OrchestratorDb } from '../db.js';
import { profilesProjection } from '../projections/profiles.js';
import { turnsProjection } from '../projections/turns.js';
import {
  declineRetention,
  nameableMemoryIds,
  planRetention,
  renderPlannedRetention,
  SKIPPED_RELIABILITY,
  SKIPPED_RETRIEVAL,
  type RetentionControls,
  type RetentionGate,
  type RetentionRendered,
  type RetentionState,
} from '../turn/retention-decision.js';

export interface RenderRetentionDeps {
  bus: Bus;
  db: Kysely<OrchestratorDb>;
  clock: Clock;
  logger?: Logger;
  memory: MemoryPort;
  /**
   * Uncertainty's CheckReliability before a nudge names a memory (issue 17, Context 3).
   * @default a client over `bus` with UNCERTAINTY's budgets
   */
  uncertainty?: UncertaintyPort;
}

// What an operator watches: what proactive messages say, and why planned ones are not sent.
const rendered = counter('hearth_retention_rendered_total', 'Proactive messages rendered, by §14.5 ladder step (follow_up, context_nudge, check_in)');
const declined = counter('hearth_retention_declined_total', 'Planned proactive messages the orchestrator declined, by reason (proactive_disabled, muted, not_active, user_interacted)');

/**
 * RetentionPlanned → the proactive message as a synthetic turn (turn-pipeline
 * §14, ARCHITECTURE "A turn, as events" step 7), in one decision on the user's
 * orchestrator chain: RetentionDeclined (retention_policy SKIP) when the user
 * turned proactive messages off, muted them, is not active or wrote since the
 * planned hour (§14.4); otherwise TurnCompleted with source = retention, rendered
 * down the §14.5 ladder with the §10 gates recorded and no LLM call. Either
 * event has one id derived from the plan, and is dated at the planned hour: the
 * message belongs to the hour the retention service evaluated.
 */
export function createRenderRetentionReactor(input: RenderRetentionDeps): Reactor {
  const deps: RenderRetentionDeps = {
    ...input,
    uncertainty:
      input.uncertainty ??
      createUncertaintyClient(input.bus, { timeoutMs: UNCERTAINTY.timeoutMs, reliabilityTimeoutMs: UNCERTAINTY.reliabilityTimeoutMs, ...(input.logger ? { logger: input.logger } : {}) }),
  };
  const { bus, db } = deps;
  return {
    name: 'render-retention',
    sources: ['retention'],
    types: [Events.RetentionPlanned.name],
    async react(event: StoredEvent) {
      if (event.type !== Events.RetentionPlanned.name) return;
      const planned = payloadOf(event, Events.RetentionPlanned);
      for (const [name, value] of [['retention_id', planned.retentionId], ['notification_id', planned.notificationId], ['conversation_id', planned.conversationId]] as const) {
        if (!isUuid(value)) throw new TerminalError(`RetentionPlanned ${event.id}: ${name} must be a uuid, got ${JSON.stringify(value.slice(0, 64))}`);
      }
      // One id whatever the decision, so a redelivery can neither render twice nor decline what it rendered.
      const decisionId = deriveId('orchestrator', 'retention', event.id);
      const meta = { id: decisionId, userId: event.userId, causationId: event.id, correlationId: event.correlationId || planned.retentionId, occurredAt: event.occurredAt };
      const seen: { decided?: Decided } = {};
      const results = await appendDecided(bus, 'orchestrator', event.userId, async (last) => {
        seen.decided = undefined;
        if (last?.id === decisionId) return [];
        await requirePosition(db, turnsProjection.name, last, { timeoutMs: RECIPE.projectionWaitMs });
        // §14.4 "immediately": the controls as of the user's latest ingress event.
        const controls = await bus.lastOnSubject('ingress', event.userId);
        await requirePosition(db, profilesProjection.name, controls, { timeoutMs: RECIPE.projectionWaitMs });
        // Rendered before, past the dedup window.
        const done = await db.selectFrom('dialogue').select('assistant_message_id').where('user_id', '=', event.userId).where('user_message_id', '=', planned.retentionId).executeTakeFirst();
        if (done) return [];
        const d = await decide(deps, event, planned);
        seen.decided = d;
        return [draftOf(d, meta)];
      });
      const decided = seen.decided;
      if (!decided || results.length === 0 || results.every((r) => r.duplicate)) return;
      if (decided.kind === 'rendered') rendered.add(1, { step: decided.step });
      else declined.add(1, { reason: decided.reason });
    },
  };
}

/** What the §14.4 decline reads: the controls, and whether the user chatted since the planned hour. */
async function loadRetentionControls(db: Kysely<OrchestratorDb>, userId: string, slot: Date): Promise<RetentionControls> {
  const profile = await db
    .selectFrom('profiles')
    .select(['user_state', 'proactive_messages_enabled', 'mute_until', 'suppressed_topics', 'ai_friend_id'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const chatted = await db
    .selectFrom('dialogue')
    .select('assistant_message_id')
    .where('user_id', '=', userId)
    .where('source', '=', 'chat')
    .where('created_at', '>=', slot)
    .limit(1)
    .executeTakeFirst();
  return {
    profile: profile && {
      userState: profile.user_state,
      proactiveMessagesEnabled: profile.proactive_messages_enabled,
      muteUntil: profile.mute_until,
      suppressedTopics: profile.suppressed_topics,
      aiFriendId: profile.ai_friend_id,
    },
    chattedSinceSlot: chatted !== undefined,
  };
}

/** The rest of the read models' state for a plan the controls let through (the decision is in turn/retention-decision.ts). */
async function loadRenderState(db: Kysely<OrchestratorDb>, userId: string, conversationId: string, controls: RetentionControls): Promise<RetentionState> {
  const personaRow = await db.selectFrom('personas').select(['template_id', 'stable_style_params', 'persona_seed']).where('user_id', '=', userId).executeTakeFirst();
  const relRow = await db.selectFrom('relationships').select('stage').where('user_id', '=', userId).executeTakeFirst();
  const history = await db
    .selectFrom('dialogue')
    .select(['source', 'assistant_text', 'opener_norm', 'asked_question', 'user_message_id', 'created_at'])
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', userId)
    .orderBy('event_seq', 'desc')
    .limit(GATES.recentAssistantMessages)
    .execute();
  // §14.5 anti-repetition: the openers of this user's last 10 proactive messages, in any conversation.
  const openers = await db
    .selectFrom('dialogue')
    .select('opener_norm')
    .where('user_id', '=', userId)
    .where('source', '=', 'retention')
    .orderBy('event_seq', 'desc')
    .limit(RETENTION.recentOpeners)
    .execute();
  return {
    ...controls,
    persona: personaRow && { templateId: personaRow.template_id, stableStyleParams: personaRow.stable_style_params, personaSeed: personaRow.persona_seed },
    relationshipStage: relRow?.stage,
    history,
    recentOpeners: openers.map((o) => o.opener_norm),
  };
}

type Decided = (RetentionGate & { kind: 'declined' }) | RetentionRendered;

/** Reads, asks memory and uncertainty what the decision needs, and decides. */
async function decide(deps: RenderRetentionDeps, event: StoredEvent, planned: RetentionPlanned): Promise<Decided> {
  const given = { userId: event.userId, planned, slot: planned.slot ?? event.occurredAt };
  const controls = await loadRetentionControls(deps.db, given.userId, given.slot);
  const declined = declineRetention(given, controls, deps.clock.now());
  if (declined) return declined;
  const plan = planRetention(given, await loadRenderState(deps.db, given.userId, planned.conversationId, controls));
  const retrieval = plan.memoryRequest ? await deps.memory.find(plan.memoryRequest) : SKIPPED_RETRIEVAL;
  const nameable = nameableMemoryIds(retrieval.memories);
  const checked = nameable.length > 0 ? await deps.uncertainty!.reliability({ userId: given.userId, memoryIds: nameable }) : SKIPPED_RELIABILITY;
  const out = renderPlannedRetention(plan, retrieval, checked);
  if (out.failedGates.length > 0) {
    deps.logger?.warn({ retentionId: planned.retentionId, failed: out.failedGates }, 'proactive message sent with a failing gate (the neutral fallback)');
  }
  return out;
}

/** The decision as the event to append. */
function draftOf(d: Decided, meta: Omit<EventDraft, 'type' | 'payload'>): EventDraft {
  return d.kind === 'declined' ? draft(Events.RetentionDeclined, d.event, meta) : draft(Events.TurnCompleted, d.event, meta);
}
