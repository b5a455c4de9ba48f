import { appendDecided, payloadOf, type Bus, type StoredEvent } from '@hearth/bus';
import { Events, type TurnCompleted } from '@hearth/events';
import type { Embedder, LlmExchange } from '@hearth/llm';
import { embeddingTextOf, isCompanionSpeech } from '@hearth/beliefs';
import { requirePosition, type Reactor } from '@hearth/store';
import { counter, type Logger } from '@hearth/telemetry';
import { detectTags, mayTag, type TagCandidate } from '@hearth/trust';
import type { belief } from '@hearth/proto';
import type { Kysely } from 'kysely';
import type { TagLlm } from '../adapters/llm.js';
import { beliefViewOf, decisionRecorded, loadActors, loadFeedback, turnRecorded, userBeliefOf } from '../adapters/state.js';
import { SERVICE } from '../config.js';
import type { TrustDb } from '../db.js';
import { decideChallenge } from '../feedback/challenge.js';
import { decideTurn } from '../feedback/turn.js';
import { challengeDecisionId, decisionId, tagId } from '../ids.js';
import { trustProjection } from '../projections/trust.js';
import { challengeDraft, turnDrafts } from './drafts.js';

export interface TrustReactorDeps {
  bus: Bus;
  db: Kysely<TrustDb>;
  /** belief-graph's queries, one client for the process (adapters/beliefs.ts). */
  beliefGraph: belief.BeliefQueries;
  /** belief-graph's embedder choice (configured embeddings, or the local one of the same name). */
  embedder: Embedder;
  logger?: Logger;
  /** The tag labeller, when an LLM is configured; else the lexicon rules alone. */
  llm?: TagLlm | null;
}

const tagsTotal = counter('hearth_trust_tags_total', 'Tags found in turns, by tag, actor and whether they count (counted, duplicate, off_target, no_belief)');
const decisionsTotal = counter('hearth_trust_decisions_total', 'Decisions trust judges, by action: the gardener on companion beliefs after new feedback (promote, deprecate, hold), and the companion challenging a user belief (challenge)');
const labellerTotal = counter('hearth_trust_labeller_total', 'Turns the LLM tag labeller was asked about, by whether its answer was used (llm) or the rules decided (rules)');

/** Warned once per process: vectors of two models are never compared. */
let warnedModel = false;


/**
 * What a turn gives trust (outcome-driven-trust.md Integration 1–2): the
 * +keep / +doubt / +artifact tags of the user's message (actor user) and of the
 * companion's reply (actor agent), weighed against the companion's beliefs, and
 * the gardener's decision on each belief a counted tag touched. The lexicon's
 * pre-screen ends most turns before any read or append.
 *
 * And from belief-graph's stream, each belief challenge the companion wove into
 * a reply: a decision of the agent's trust judges like the gardener's (its
 * outcomes are belief-challenge.md's reward correlation). Every other
 * belief-graph event ends on its type, undecoded.
 */
export function createTrustReactor(deps: TrustReactorDeps): Reactor {
  return {
    name: 'feedback',
    sources: ['orchestrator', 'belief-graph'],
    types: [Events.BeliefChallengeIssued.name, Events.TurnCompleted.name],
    async react(event: StoredEvent) {
      if (event.type === Events.BeliefChallengeIssued.name) return challengeIssued(deps, event);
      if (event.type !== Events.TurnCompleted.name) return;
      const t = payloadOf(event, Events.TurnCompleted);
      if (!isCompanionSpeech(t)) return;
      // The cost budget (≤ 1 ms a turn): a turn with no cue word reads and appends nothing.
      if (!mayTag(t.userText, 'user') && !mayTag(t.assistantText, 'agent')) return;
      return turnCompleted(deps, event, t);
    },
  };
}

async function turnCompleted(deps: TrustReactorDeps, event: StoredEvent, t: TurnCompleted): Promise<void> {
  const rules: TagCandidate[] = [...detectTags(t.userText, 'user'), ...detectTags(t.assistantText, 'agent')];
  if (rules.length === 0 && !deps.llm) return;
  // Decided already (a redelivery): the model is not asked again.
  if (await turnRecorded(deps.db, event.userId, t.messageId)) return;
  let candidates = rules;
  let detector: 'rules' | 'llm' = 'rules';
  let exchanges: LlmExchange[] = [];
  if (deps.llm) {
    const seed = parseInt(t.messageId.replace(/-/g, '').slice(0, 8), 16) >>> 0;
    const labelled = await deps.llm.label({ userText: t.userText, assistantText: t.assistantText, seed });
    exchanges = labelled.exchanges;
    if (labelled.candidates) {
      candidates = labelled.candidates;
      detector = 'llm';
    }
    labellerTotal.add(1, { detector });
  }
  if (candidates.length === 0) return;
  const at = event.occurredAt;
  const [{ beliefs }, vectors] = await Promise.all([
    deps.beliefGraph.GetCompanionBeliefs({ userId: event.userId, at, beliefIds: [] }),
    deps.embedder.embed(candidates.map((c) => embeddingTextOf(c.text))),
  ]);
  const views = beliefs.map(beliefViewOf);
  if (views.length > 0 && !views.some((b) => b.embeddingModel === deps.embedder.model) && !warnedModel) {
    warnedModel = true;
    deps.logger?.warn({ embedder: deps.embedder.model, beliefs: [...new Set(views.map((b) => b.embeddingModel))] }, 'the companion beliefs were embedded by another model than trust embeds tags with: no tag aligns (configure the same embeddings for belief-graph and trust)');
  }
  let decided: ReturnType<typeof decideTurn> | null = null;
  await appendDecided(deps.bus, 'trust', event.userId, async (last) => {
    decided = null;
    await requirePosition(deps.db, trustProjection.name, last, { timeoutMs: SERVICE.projectionWaitMs });
    if (await turnRecorded(deps.db, event.userId, t.messageId)) return [];
    const [history, actors] = await Promise.all([loadFeedback(deps.db, event.userId, new Date(at.getTime() - SERVICE.historyMs), at), loadActors(deps.db, event.userId)]);
    decided = decideTurn({
      at,
      messageId: t.messageId,
      assistantMessageId: t.assistantMessageId,
      candidates,
      vectors,
      model: deps.embedder.model,
      beliefs: views,
      history,
      trust: { user: actors.user.trust, agent: actors.agent.trust },
      tagId: (i) => tagId(t.messageId, i),
      decisionId: (beliefId) => decisionId(t.messageId, beliefId),
    });
    return turnDrafts(
      { userId: event.userId, causationId: event.id, correlationId: t.messageId, occurredAt: at },
      { messageId: t.messageId, assistantMessageId: t.assistantMessageId, conversationId: t.conversationId, detector, exchanges, embeddingModel: deps.embedder.model },
      decided,
    );
  });
  const d = decided as ReturnType<typeof decideTurn> | null;
  if (!d) return;
  for (const tag of d.tags) tagsTotal.add(1, { tag: tag.tag, actor: tag.actor, reason: tag.reason });
  for (const x of d.decisions) decisionsTotal.add(1, { action: x.verdict.action });
  if (d.decisions.some((x) => x.verdict.action !== 'hold')) {
    deps.logger?.info({ userId: event.userId, messageId: t.messageId, decisions: d.decisions.map((x) => ({ beliefId: x.beliefId, action: x.verdict.action, reason: x.verdict.reason })) }, 'the gardener decided on companion beliefs');
  }
}

/**
 * A challenge the companion wove in (belief-graph's BeliefChallengeIssued) as a
 * decision of the agent's about the user's belief, with its confidence and open
 * conflicts as belief-graph holds them now (GetBeliefs of the user's graph:
 * GetCompanionBeliefs lists only the companion's). Challenges are rare (one a
 * conversation at most), and a redelivered one asks nothing.
 */
async function challengeIssued(deps: TrustReactorDeps, event: StoredEvent): Promise<void> {
  const c = payloadOf(event, Events.BeliefChallengeIssued);
  if (!c.challengeId || !c.beliefId) return;
  const id = challengeDecisionId(c.challengeId);
  if (await decisionRecorded(deps.db, id)) return;
  const graph = await deps.beliefGraph.GetBeliefs({ userId: event.userId, holder: 'user' });
  const belief = userBeliefOf(graph, c.beliefId);
  const appended = await appendDecided(deps.bus, 'trust', event.userId, async (last) => {
    await requirePosition(deps.db, trustProjection.name, last, { timeoutMs: SERVICE.projectionWaitMs });
    if (await decisionRecorded(deps.db, id)) return [];
    const d = decideChallenge({ at: event.occurredAt, challengeId: c.challengeId, beliefId: c.beliefId, messageId: c.messageId, belief, decisionId: id });
    return [challengeDraft({ userId: event.userId, causationId: event.id, correlationId: c.messageId, occurredAt: event.occurredAt }, d)];
  });
  if (appended.some((a) => !a.duplicate)) decisionsTotal.add(1, { action: 'challenge' });
}
