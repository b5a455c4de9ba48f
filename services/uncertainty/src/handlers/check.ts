import { appendDecided, draft, type Bus, type EventDraft } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import { extractRulesOnly } from '@hearth/memory-rules';
import { requirePosition } from '@hearth/store';
import { counter, histogram, type Logger } from '@hearth/telemetry';
import { checkMessage, classifyPair, selectSurface, type CheckDecision, type Classification } from '@hearth/uncertainty';
import { llmExchangeToProto } from '@hearth/events';
import type { LlmExchange } from '@hearth/llm';
import type { ClassifierLlm } from '../adapters/llm.js';
import type { Kysely } from 'kysely';
import { loadHeld, loadRecords, loadTolerance, waitWrittenBack } from '../adapters/state.js';
import { SERVICE } from '../config.js';
import type { UncertaintyDb } from '../db.js';
import { uncertaintiesProjection } from '../projections/uncertainties.js';
import { recordedDraft, reliabilityDrafts, resolvedDraft, toleranceDraft, type Meta } from './drafts.js';

export interface CheckDeps {
  bus: Bus;
  db: Kysely<UncertaintyDb>;
  logger?: Logger;
  /** The contradiction classifier, when an LLM is configured; else the rules alone. */
  llm?: ClassifierLlm | null;
}

export interface CheckRequest {
  userId: string;
  messageId: string;
  conversationId: string;
  text: string;
  afterMessageId: string;
  answersUncertaintyId: string;
  at: Date;
  /** Run after the reply (the orchestrator never got an answer): nothing can be woven, it waits for its context. */
  late: boolean;
  causationId: string;
}

const checks = counter('hearth_uncertainty_checks_total', 'Context 1 checks by verdict and whether they ran in time for the reply');
const checkSeconds = histogram('hearth_uncertainty_check_seconds', 'Time of one Context 1 check, against its 600 ms time box', 's');

export function checkedId(messageId: string): string {
  return deriveId('uncertainty', 'checked', messageId);
}

const NOTHING: CheckDecision = { verdict: 'none', matches: [], contradictedMemoryIds: [], record: null, resolutions: [], reliability: [], tolerance: null, steppedDown: null, surface: null, uncertaintyId: '' };

/**
 * Context 1 for one user message: reads what the message states with memory's
 * rules, checks it against the user's memories and open uncertainties, and
 * appends the decision on the user's uncertainty chain (MessageChecked last, so
 * its row means the whole decision is on the log). A message that states no
 * trait and meets no open uncertainty reads one index and appends nothing.
 */
export async function runCheck(deps: CheckDeps, req: CheckRequest): Promise<CheckDecision> {
  const started = performance.now();
  const candidates = extractRulesOnly(req.text, req.at).filter((c) => SERVICE.traitTypes.includes(c.type));
  // The previous turn's write-back holds what this message is checked against.
  if (req.afterMessageId && !req.late) await waitWrittenBack(deps.db, req.userId, req.afterMessageId, SERVICE.writtenBackWaitMs);
  if (candidates.length === 0 && !req.answersUncertaintyId) {
    // Nothing stated, nothing answered: nothing to record; only an open uncertainty whose
    // context this message meets may be raised (Surfacing Strategy).
    const open = req.late ? [] : await loadRecords(deps.db, req.userId, ['open', 'surfaced']);
    const surface = open.length > 0 ? selectSurface(req.text, open, await loadTolerance(deps.db, req.userId)) : null;
    checks.add(1, { verdict: 'none', late: String(req.late) });
    return { ...NOTHING, surface };
  }
  let decision = NOTHING;
  let exchanges: LlmExchange[] = [];
  await appendDecided(deps.bus, 'uncertainty', req.userId, async (last) => {
    // Asked again (a redelivered turn, a replica): the answer is the recorded one.
    await requirePosition(deps.db, uncertaintiesProjection.name, last, { timeoutMs: SERVICE.projectionWaitMs });
    const done = await deps.db.selectFrom('checks').selectAll().where('message_id', '=', req.messageId).executeTakeFirst();
    if (done) {
      decision = { ...NOTHING, verdict: done.verdict as CheckDecision['verdict'], contradictedMemoryIds: done.contradicted_memory_ids, uncertaintyId: done.uncertainty_id };
      return [];
    }
    const [held, open, tolerance] = await Promise.all([
      loadHeld(deps.db, req.userId, [...new Set(candidates.map((c) => c.key))], req.late ? req.messageId : ''),
      loadRecords(deps.db, req.userId, ['open', 'surfaced']),
      loadTolerance(deps.db, req.userId),
    ]);
    // The classifier is asked only about pairs the rules call a change or a contradiction.
    const classified = new Map<string, { classification: Classification; reasoning: string }>();
    exchanges = [];
    if (deps.llm) {
      const asks = candidates.flatMap((c) => {
        const h = held.find((x) => x.key === c.key);
        const ruled = h ? classifyPair(req.text, c, h).classification : 'compatible';
        return h && (ruled === 'temporal_change' || ruled === 'true_contradiction') ? [{ c, h }] : [];
      });
      const seed = parseInt(req.messageId.replace(/-/g, '').slice(0, 8), 16) >>> 0;
      for (const { c, h } of asks) {
        const r = await deps.llm.classify(req.text, c, h, req.at, seed);
        exchanges.push(...r.exchanges);
        if (r.reading) classified.set(c.key, r.reading);
      }
    }
    decision = checkMessage({
      classified,
      messageId: req.messageId,
      text: req.text,
      candidates,
      held,
      open,
      answering: open.find((u) => u.uncertaintyId === req.answersUncertaintyId) ?? null,
      tolerance,
      at: req.at,
      newId: (key) => deriveId('uncertainty', 'uncertainty', req.messageId, key),
    });
    // Too late for the reply: nothing is woven now; an open one waits for its context.
    if (req.late) decision = { ...decision, surface: null };
    return decisionDrafts(req, decision, Math.round(performance.now() - started), exchanges);
  });
  const verdict = decision.verdict;
  checks.add(1, { verdict, late: String(req.late) });
  checkSeconds.record((performance.now() - started) / 1000, { late: String(req.late) });
  if (verdict !== 'none' && verdict !== 'reinforcement') deps.logger?.info({ userId: req.userId, messageId: req.messageId, verdict, uncertaintyId: decision.uncertaintyId, late: req.late }, 'message checked against what the friend remembers');
  return decision;
}

/** The events of one check; none when it found nothing to record. */
export function decisionDrafts(req: CheckRequest, d: CheckDecision, latencyMs = 0, exchanges: readonly LlmExchange[] = []): EventDraft[] {
  if (d.matches.length === 0 && d.resolutions.length === 0 && !d.steppedDown && !d.record) return [];
  const m: Meta = { userId: req.userId, causationId: req.causationId, correlationId: req.messageId, occurredAt: req.at, basis: req.messageId };
  const drafts: EventDraft[] = [];
  if (d.record) drafts.push(recordedDraft(m, d.record));
  for (const r of d.resolutions) drafts.push(resolvedDraft(m, r, req.messageId));
  drafts.push(...reliabilityDrafts(m, d.reliability));
  if (d.tolerance) drafts.push(toleranceDraft(m, d.tolerance, req.messageId));
  if (d.steppedDown) {
    drafts.push(
      draft(
        Events.UncertaintySteppedDown,
        { uncertaintyId: d.steppedDown.uncertaintyId, severityFrom: d.steppedDown.from, severityTo: d.steppedDown.to, surfacedCount: d.steppedDown.surfacedCount, at: req.at },
        { userId: req.userId, causationId: req.causationId, correlationId: req.messageId, occurredAt: req.at, id: deriveId('uncertainty', 'stepped-down', d.steppedDown.uncertaintyId) },
      ),
    );
  }
  drafts.push(
    draft(
      Events.MessageChecked,
      {
        messageId: req.messageId,
        conversationId: req.conversationId,
        verdict: d.verdict,
        contradictedMemoryIds: d.contradictedMemoryIds,
        uncertaintyId: d.uncertaintyId,
        classifier: exchanges.length > 0 ? 'llm' : 'rules',
        exchanges: exchanges.map(llmExchangeToProto),
        latencyMs,
        late: req.late,
        matches: d.matches.map((x) => ({ memoryKey: x.key, statedValue: x.statedValue, memoryId: x.memoryId, storedValue: x.storedValue, classification: x.classification, cue: x.cue })),
      },
      { userId: req.userId, causationId: req.causationId, correlationId: req.messageId, occurredAt: req.at, id: checkedId(req.messageId) },
    ),
  );
  return drafts;
}
