import { isCompanionSpeech, replySignal, updateConfidence } from '@hearth/beliefs';
import { appendDecided, draft, payloadOf, type Bus, type EventDraft, type StoredEvent } from '@hearth/bus';
import { deriveId, Events, isUuid, type TurnCompleted } from '@hearth/events';
import { requirePosition, type Reactor } from '@hearth/store';
import { counter } from '@hearth/telemetry';
import { SERVICE } from '../config.js';
import { gardenBelief, type GardenedNode, type GardenerStep } from '../domain/gardener.js';
import { beliefsProjection } from '../projections/beliefs.js';
import { decideExtraction, decomposeSource, processed, type BeliefSource, type ExtractDeps } from './extract.js';

export interface BeliefReactorDeps extends ExtractDeps {
  bus: Bus;
}

const challengesRecorded = counter('hearth_belief_challenges_total', 'Belief challenges woven into replies, by style');
const confidenceUpdates = counter('hearth_belief_confidence_updates_total', 'What the user said after a challenge (reinforced, questioned, contradicted, none)');
const gardened = counter('hearth_belief_gardened_total', "The trust gardener's promote/deprecate decisions, by action and what the graph made of them");


/**
 * What a turn gives the belief graph (issue 16: live inputs, not a batch):
 * - TurnReceived (ingress) → the user's self-perceptions (holder user);
 * - TurnCompleted (orchestrator) → the companion's self-statements in its reply
 *   (holder companion), the challenge the reply wove in, and — when the
 *   previous reply in the conversation carried one — what the user's answer
 *   does to that belief's confidence (belief-challenge.md §5);
 * - PersonaAssigned (orchestrator) → the persona's template seeds the
 *   companion's first identity beliefs;
 * - GardenerDecided (trust) → a promote or deprecate of a companion belief,
 *   applied or refused with its reason (BeliefGardened); a hold asks nothing.
 * Each decision is taken on the user's belief chain once the projection has
 * applied it, and appended with ids derived from the event.
 */
export function createBeliefReactor(deps: BeliefReactorDeps): Reactor {
  return {
    name: 'extract',
    sources: ['ingress', 'orchestrator', 'trust'],
    types: [Events.TurnReceived.name, Events.TurnCompleted.name, Events.PersonaAssigned.name, Events.GardenerDecided.name],
    async react(event: StoredEvent) {
      if (event.type === Events.GardenerDecided.name) return garden(deps, event);
      const completed = event.type === Events.TurnCompleted.name ? payloadOf(event, Events.TurnCompleted) : null;
      // Offline, a text the rules find no belief in needs no decision: nothing is appended, no
      // read is made (most turns). The rules are pure: a backfill finds the same nothing.
      const sources = sourcesOf(event).flatMap((src) => {
        const decomposition = decomposeSource(src);
        return deps.llm || decomposition.atoms.length > 0 ? [{ src, decomposition }] : [];
      });
      const challenge = completed?.beliefs?.challenge?.challengeId ? completed.beliefs.challenge : null;
      const answers = completed?.source === 'chat' ? (completed.beliefs?.answersChallengeId ?? '') : '';
      if (sources.length === 0 && !challenge && !answers) return;
      await appendDecided(deps.bus, 'belief-graph', event.userId, async (last) => {
        await requirePosition(deps.db, beliefsProjection.name, last, { timeoutMs: SERVICE.projectionWaitMs });
        const drafts: EventDraft[] = [];
        if (completed && answers) drafts.push(...(await challengeFollowUp(deps, event, completed, answers)));
        for (const { src, decomposition } of sources) {
          if (await processed(deps.db, src, deps.extractorVersion)) continue;
          drafts.push(await decideExtraction(deps, src, decomposition));
        }
        if (completed && challenge) drafts.push(...(await challengeIssued(deps, event, completed)));
        return drafts;
      });
    },
  };
}

/** The texts of an event the decomposer reads. */
export function sourcesOf(event: StoredEvent): BeliefSource[] {
  const base = { eventId: event.id, userId: event.userId, at: event.occurredAt };
  switch (event.type) {
    case Events.TurnReceived.name: {
      const t = payloadOf(event, Events.TurnReceived);
      // A retention turn has no user text; a refused pre-activation message is out of the history.
      if (t.source === 'retention' || !t.text.trim()) return [];
      if (t.userState !== 'ACTIVE' && !t.activatesUser) return [];
      return [{ ...base, holder: 'user', sourceKind: 'user_message', sourceMessageId: t.messageId, correlationId: t.messageId, conversationId: t.conversationId, aiFriendId: t.aiFriendId, text: t.text }];
    }
    case Events.TurnCompleted.name: {
      const t = payloadOf(event, Events.TurnCompleted);
      if (!isCompanionSpeech(t)) return [];
      return [
        { ...base, holder: 'companion', sourceKind: 'assistant_reply', sourceMessageId: t.assistantMessageId, correlationId: t.messageId, conversationId: t.conversationId, aiFriendId: t.aiFriendId, text: t.assistantText },
      ];
    }
    case Events.PersonaAssigned.name: {
      const p = payloadOf(event, Events.PersonaAssigned);
      if (p.selfStatements.length === 0) return [];
      // The template is the persona's own considered account of itself (§4.1 introspection).
      return [
        { ...base, holder: 'companion', sourceKind: 'persona_seed', sourceMessageId: event.id, correlationId: '', conversationId: '', aiFriendId: p.aiFriendId, text: p.selfStatements.join(' '), mode: 'introspection' },
      ];
    }
    default:
      return [];
  }
}

/** The challenge a reply wove in (the orchestrator decided; the graph records it). */
async function challengeIssued(deps: BeliefReactorDeps, event: StoredEvent, t: TurnCompleted): Promise<EventDraft[]> {
  const c = t.beliefs?.challenge;
  if (!c?.challengeId) return [];
  const known = await deps.db.selectFrom('challenges').select('challenge_id').where('challenge_id', '=', c.challengeId).executeTakeFirst();
  if (known) return [];
  challengesRecorded.add(1, { style: c.style });
  return [
    draft(
      Events.BeliefChallengeIssued,
      { challengeId: c.challengeId, beliefId: c.beliefId, style: c.style, messageId: t.messageId, assistantMessageId: t.assistantMessageId, conversationId: t.conversationId, prompt: c.prompt },
      { userId: event.userId, causationId: event.id, correlationId: t.messageId, id: deriveId('belief-graph', 'challenge-issued', c.challengeId), occurredAt: event.occurredAt },
    ),
  ];
}

/**
 * belief-challenge.md §5, driven by what the user says next: the user message
 * right after a reply that carried a challenge (the orchestrator names that
 * challenge in `answers_challenge_id`) reinforces, questions or contradicts
 * the belief, in a small bounded step; a message that says neither closes the
 * challenge unchanged. Only the first answer counts.
 */
async function challengeFollowUp(deps: BeliefReactorDeps, event: StoredEvent, t: TurnCompleted, challengeId: string): Promise<EventDraft[]> {
  if (!t.userText) return [];
  const open = await deps.db
    .selectFrom('challenges')
    .innerJoin('nodes', 'nodes.belief_id', 'challenges.belief_id')
    .select(['challenges.challenge_id', 'challenges.belief_id', 'nodes.canonical_text', 'nodes.polarity', 'nodes.confidence'])
    .where('challenges.challenge_id', '=', challengeId)
    .where('challenges.user_id', '=', event.userId)
    .where('challenges.answered_message_id', 'is', null)
    .executeTakeFirst();
  if (!open) return [];
  const signal = replySignal(t.userText, { canonicalText: open.canonical_text, polarity: open.polarity as 'affirm' | 'deny' });
  const next = signal ? updateConfidence(open.confidence, signal) : { confidence: open.confidence, delta: 0 };
  confidenceUpdates.add(1, { signal: signal ?? 'none' });
  return [
    draft(
      Events.BeliefConfidenceUpdated,
      { beliefId: open.belief_id, signal: signal ?? 'none', delta: next.delta, confidence: next.confidence, sourceMessageId: t.messageId, challengeId: open.challenge_id },
      { userId: event.userId, causationId: event.id, correlationId: t.messageId, id: deriveId('belief-graph', 'confidence', open.challenge_id), occurredAt: event.occurredAt },
    ),
  ];
}

/**
 * outcome-driven-trust.md "Belief Gardener Scan": trust decided to promote or
 * deprecate a companion belief; the graph, which owns the node, applies it
 * within the levels or says why not. A decision already answered (its row in
 * `gardened`) is not answered again.
 */
async function garden(deps: BeliefReactorDeps, event: StoredEvent): Promise<void> {
  const d = payloadOf(event, Events.GardenerDecided);
  if ((d.action !== 'promote' && d.action !== 'deprecate') || !d.decisionId) return;
  const action: GardenerStep = d.action;
  await appendDecided(deps.bus, 'belief-graph', event.userId, async (last) => {
    await requirePosition(deps.db, beliefsProjection.name, last, { timeoutMs: SERVICE.projectionWaitMs });
    const answered = await deps.db.selectFrom('gardened').select('decision_id').where('decision_id', '=', d.decisionId).executeTakeFirst();
    if (answered) return [];
    const g = gardenBelief(action, await gardenedNode(deps, event.userId, d.beliefId));
    gardened.add(1, { action, reason: g.reason });
    return [
      draft(
        Events.BeliefGardened,
        { decisionId: d.decisionId, beliefId: d.beliefId, action, ...g },
        { userId: event.userId, causationId: event.id, correlationId: event.correlationId || d.sourceMessageId, id: deriveId('belief-graph', 'gardened', d.decisionId), occurredAt: event.occurredAt },
      ),
    ];
  });
}

/** The user's node of that id as the gardener sees it; null when there is none (an id that is no uuid names none). */
async function gardenedNode(deps: BeliefReactorDeps, userId: string, beliefId: string): Promise<GardenedNode | null> {
  if (!isUuid(beliefId)) return null;
  const n = await deps.db
    .selectFrom('nodes')
    .select(['holder', 'deleted_at', 'merged_into', 'gardener_level', 'confidence'])
    .where('belief_id', '=', beliefId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return n ? { holder: n.holder, live: n.deleted_at === null && n.merged_into === null, level: n.gardener_level, confidence: n.confidence } : null;
}
