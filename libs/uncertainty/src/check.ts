import { CONFIDENCE, parseKey, stanceOf } from '@hearth/memory-rules';
import { SEVERITIES, UNCERTAINTY_CONFIG, type Classification, type Severity, type Store, type Verdict } from './config.js';
import { correctionCue, deniesValue, stanceCue, temporalCue } from './cues.js';
import { decayedConfidence } from './decay.js';
import { contextMatches, surfaceContextOf, valueWords } from './describe.js';
import type { CheckDecision, HeldMemory, MatchView, NewUncertainty, ReliabilityChange, Resolution, Side, StatedCandidate, SurfacePlan, ToleranceChange, UncertaintyRecord } from './types.js';

export interface CheckInput {
  messageId: string;
  text: string;
  /** What memory's rules read in the message (extractRulesOnly). */
  candidates: readonly StatedCandidate[];
  /** The user's ACTIVE memories (one per key). */
  held: readonly HeldMemory[];
  /** The user's open uncertainties (open or surfaced). */
  open: readonly UncertaintyRecord[];
  /** The uncertainty the previous reply asked about, when this message answers it. */
  answering: UncertaintyRecord | null;
  /** The user's tolerance. */
  tolerance: number;
  at: Date;
  /** The id of an uncertainty this message opens about `key` (derived by the caller from the message id). */
  newId: (key: string) => string;
  /**
   * The LLM classifier's readings by key (when one is configured), recorded with the
   * check: they replace the rules' temporal_change / true_contradiction; a
   * correction or a restatement stays the rules' (explicit words decide those).
   */
  classified?: ReadonlyMap<string, { classification: Classification; reasoning: string }>;
}

/** Trait (FACT, PREFERENCE) or episode (RELATIONSHIP_EVENT, EMOTIONAL_PATTERN): specs/README.md's mapping. */
export function storeOf(type: string): Store {
  return type === 'FACT' || type === 'PREFERENCE' ? 'trait' : 'episode';
}

/** "Severity Classification": by the stores of the two sides (solo: low). */
export function severityOf(a: Store, b: Store | null): Severity {
  if (b === null) return UNCERTAINTY_CONFIG.severity.solo;
  const pair = [a, b].sort().join('|') as keyof typeof UNCERTAINTY_CONFIG.severity;
  return UNCERTAINTY_CONFIG.severity[pair] ?? 'medium';
}

/** explicit: an anchored first-person statement (the heuristic rules); inferred: a broader reading. */
export function sourceOf(extractor: string): 'explicit' | 'inferred' {
  return extractor === 'heuristic' ? 'explicit' : 'inferred';
}

export function sideOf(m: HeldMemory): Side {
  return { kind: 'memory', id: m.memoryId, store: storeOf(m.type), key: m.key, value: m.value, confidence: m.confidence, source: sourceOf(m.extractor), sourceMessageId: m.sourceMessageId, statements: m.statements };
}

/** A side the message states, before memory has written it. */
function statedSide(c: StatedCandidate, messageId: string): Side {
  return { kind: 'memory', id: '', store: storeOf(c.type), key: c.key, value: c.value, confidence: c.extractor === 'llm' ? CONFIDENCE.llm : CONFIDENCE.heuristic, source: sourceOf(c.extractor), sourceMessageId: messageId, statements: 1 };
}

/** "Evidence Resolution": reinforced confidence, the side's confidence weighted by how often it was stated. */
export function evidenceOf(side: Side): number {
  return side.confidence * Math.max(1, side.statements);
}

/** The side whose evidence exceeds the other's by the ratio, or null. */
export function evidenceWinner(sides: readonly Side[]): { winner: Side; loser: Side } | null {
  if (sides.length !== 2) return null;
  const [a, b] = sides as [Side, Side];
  if (evidenceOf(a) > UNCERTAINTY_CONFIG.evidenceRatio * evidenceOf(b)) return { winner: a, loser: b };
  if (evidenceOf(b) > UNCERTAINTY_CONFIG.evidenceRatio * evidenceOf(a)) return { winner: b, loser: a };
  return null;
}

/** "Can these both be true simultaneously?" — the offline rules for a stated value against a stored one. */
export function classifyPair(text: string, stated: StatedCandidate, stored: HeldMemory): { classification: Classification; cue: string } {
  if (stated.value === stored.value) return { classification: 'reinforcement', cue: '' };
  const parsed = parseKey(stated.key);
  // Only singleton facts and one item's stance can disagree; other keys hold many values.
  const comparable = parsed?.type === 'FACT' || (parsed?.type === 'PREFERENCE' && stanceOf(stated.value) !== null && stanceOf(stored.value) !== null);
  if (!comparable) return { classification: 'compatible', cue: '' };
  const correction = correctionCue(text) ?? (deniesValue(text, valueWords(stored.value)) ? `not ${valueWords(stored.value)}` : null);
  if (correction) return { classification: 'correction', cue: correction };
  const temporal = temporalCue(text);
  if (temporal) return { classification: 'temporal_change', cue: temporal };
  return { classification: 'true_contradiction', cue: '' };
}

const VERDICT_RANK: Record<Verdict, number> = { none: 0, reinforcement: 1, temporal_change: 2, contradiction: 3, correction: 4, answer: 5 };

function stronger(a: Verdict, b: Verdict): Verdict {
  return VERDICT_RANK[b] > VERDICT_RANK[a] ? b : a;
}

function clampTolerance(x: number): number {
  const { min, max } = UNCERTAINTY_CONFIG.tolerance;
  return Math.round(Math.min(max, Math.max(min, x)) * 1000) / 1000;
}

/** The side of `u` a message takes: a restated value, or (for a stance) a stance word, or a named fact value. */
export function answerSide(text: string, candidates: readonly StatedCandidate[], u: UncertaintyRecord): Side | null {
  const stated = candidates.find((c) => c.key === u.key);
  if (stated) return u.sides.find((s) => s.value === stated.value) ?? null;
  const parsed = parseKey(u.key);
  if (parsed?.type === 'PREFERENCE') {
    const stance = stanceCue(text);
    return stance ? (u.sides.find((s) => stanceOf(s.value) === stance) ?? null) : null;
  }
  const named = u.sides.filter((s) => contextMatches(text, valueWords(s.value).toLowerCase().split(/\s+/).filter((w) => w.length >= 3)));
  return named.length === 1 ? named[0]! : null;
}

/**
 * Context 1 for one user message, pure: the message's stated traits against the
 * user's ACTIVE memories and open uncertainties. A temporal change or a
 * correction supersedes silently (recorded already resolved); a non-temporal
 * contradiction of a trait opens an uncertainty and is flagged to the reply; a
 * restatement of one side is evidence; an answer to the question the previous
 * reply asked resolves it (user_clarified). Whatever the verdict, every memory
 * the message contradicts is in `contradictedMemoryIds`.
 */
export function checkMessage(input: CheckInput): CheckDecision {
  const out: CheckDecision = { verdict: 'none', matches: [], contradictedMemoryIds: [], record: null, resolutions: [], reliability: [], tolerance: null, steppedDown: null, surface: null, uncertaintyId: '' };
  let tolerance = input.tolerance;
  const adjust = (reason: ToleranceChange['reason']) => {
    const step = reason === 'correction' ? UNCERTAINTY_CONFIG.tolerance.correctionStep : UNCERTAINTY_CONFIG.tolerance.reinforcementStep;
    tolerance = clampTolerance(tolerance + step);
    out.tolerance = { from: out.tolerance?.from ?? input.tolerance, to: tolerance, reason };
  };
  const resolved = new Set<string>();
  const resolve = (u: UncertaintyRecord, r: Omit<Resolution, 'uncertaintyId' | 'state'>, winner: Side | null, loser: Side | null, loserTo: 'superseded' | 'uncertain') => {
    if (resolved.has(u.uncertaintyId)) return;
    resolved.add(u.uncertaintyId);
    out.resolutions.push({ uncertaintyId: u.uncertaintyId, state: 'resolved', ...r });
    if (winner) out.reliability.push({ side: winner, from: 'contradicted', to: 'reliable', reason: r.strategy, uncertaintyId: u.uncertaintyId });
    if (loser) out.reliability.push({ side: loser, from: 'contradicted', to: loserTo, reason: r.strategy, uncertaintyId: u.uncertaintyId });
    out.uncertaintyId ||= u.uncertaintyId;
  };

  // The answer to the question the previous reply asked ("Conversational Clarification").
  if (input.answering) {
    const u = input.answering;
    const side = answerSide(input.text, input.candidates, u);
    if (side) {
      const loser = u.sides.find((s) => s !== side) ?? null;
      resolve(u, { strategy: 'user_clarified', detail: `the user answered: ${valueWords(side.value)}`, winnerId: side.id, loserId: loser?.id ?? '' }, side, loser, 'superseded');
      out.verdict = 'answer';
      if (loser?.id) out.contradictedMemoryIds.push(loser.id);
    } else if (u.surfacedCount >= UNCERTAINTY_CONFIG.maxSurfacings && !u.steppedDown) {
      // "Anti-nagging": asked this often without an answer, it steps down and is not raised again.
      const i = SEVERITIES.indexOf(u.severity);
      out.steppedDown = { uncertaintyId: u.uncertaintyId, from: u.severity, to: SEVERITIES[Math.max(0, i - 1)]!, surfacedCount: u.surfacedCount };
    }
  }

  const heldByKey = new Map(input.held.filter((m) => m.status === 'ACTIVE').map((m) => [m.key, m]));
  for (const c of input.candidates) {
    const held = heldByKey.get(c.key);
    if (!held) continue;
    const ruled = classifyPair(input.text, c, held);
    const llm = input.classified?.get(c.key);
    const overridable = ruled.classification === 'temporal_change' || ruled.classification === 'true_contradiction';
    // context_dependent and figurative readings are not contradictions of the stored value.
    const read = llm && overridable ? (llm.classification === 'context_dependent' || llm.classification === 'figurative' ? 'compatible' : llm.classification) : ruled.classification;
    const { classification, cue } = { classification: read, cue: llm && overridable ? `llm: ${llm.reasoning}`.slice(0, 200) : ruled.cue };
    out.matches.push({ key: c.key, statedValue: c.value, memoryId: held.memoryId, storedValue: held.value, classification, cue });
    const openOnKey = input.open.find((u) => u.key === c.key && !resolved.has(u.uncertaintyId));
    if (classification === 'compatible') continue;
    if (classification === 'reinforcement') {
      adjust('reinforcement');
      out.verdict = stronger(out.verdict, 'reinforcement');
      if (openOnKey) evidence(openOnKey, c);
      continue;
    }
    // The stored value is not what the user says now: the reply must not assert it.
    out.contradictedMemoryIds.push(held.memoryId);
    if (openOnKey && openOnKey.sides.some((s) => s.value === c.value)) {
      // A restatement of the other side of an open uncertainty: evidence, not a new one.
      if (classification === 'correction' || classification === 'temporal_change') {
        const winner = openOnKey.sides.find((s) => s.value === c.value)!;
        const loser = openOnKey.sides.find((s) => s !== winner) ?? null;
        resolve(openOnKey, { strategy: classification === 'correction' ? 'user_clarified' : 'temporal_supersede', detail: `the user said ${cue}`, winnerId: winner.id, loserId: loser?.id ?? '' }, winner, loser, 'superseded');
        if (classification === 'correction') adjust('correction');
        out.verdict = stronger(out.verdict, classification === 'correction' ? 'correction' : 'temporal_change');
      } else {
        evidence(openOnKey, c);
        out.verdict = stronger(out.verdict, 'reinforcement');
      }
      continue;
    }
    const stated = statedSide(c, input.messageId);
    const old = sideOf(held);
    const id = input.newId(c.key);
    const context = surfaceContextOf(c.key, [held.value, c.value]);
    const base = { uncertaintyId: id, type: 'contradiction' as const, sides: [old, stated], severity: severityOf(old.store, stated.store), detectionContext: 'ingestion' as const, surfaceContext: context.description, surfaceCues: context.cues, sourceMessageIds: [held.sourceMessageId, input.messageId].filter(Boolean) };
    if (openOnKey) resolve(openOnKey, { strategy: classification === 'correction' ? 'user_clarified' : 'temporal_supersede', detail: `a third value: ${valueWords(c.value)}`, winnerId: '', loserId: '' }, null, null, 'superseded');
    if (classification === 'correction' || classification === 'temporal_change') {
      const strategy = classification === 'correction' ? 'user_clarified' : 'temporal_supersede';
      out.record = { ...base, reasoning: `${classification === 'correction' ? 'the user corrected' : 'the user reported a change of'} ${valueWords(held.value)} to ${valueWords(c.value)} ("${cue}")`, temporalSignal: classification === 'temporal_change', state: 'resolved', strategy, detail: `${valueWords(held.value)} is now "used to"; ${valueWords(c.value)} holds` };
      out.reliability.push({ side: old, from: held.reliability, to: 'superseded', reason: strategy, uncertaintyId: id });
      if (classification === 'correction') adjust('correction');
      out.verdict = stronger(out.verdict, classification === 'correction' ? 'correction' : 'temporal_change');
      out.uncertaintyId = id;
      continue;
    }
    // "Confidence Dominance": a faded inferred memory does not stand against an explicit statement.
    const heldNow = decayedConfidence(held.confidence, held.type, held.reliability, input.at.getTime() - held.lastConfirmedAt.getTime());
    if (stated.source === 'explicit' && old.source === 'inferred' && stated.confidence > UNCERTAINTY_CONFIG.dominanceRatio * heldNow) {
      out.record = { ...base, reasoning: `an explicit statement (${stated.confidence}) outweighs an inferred memory faded to ${heldNow.toFixed(2)}`, temporalSignal: false, state: 'resolved', strategy: 'confidence_dominance', detail: `${valueWords(held.value)} marked uncertain` };
      out.reliability.push({ side: old, from: held.reliability, to: 'uncertain', reason: 'confidence_dominance', uncertaintyId: id });
      out.uncertaintyId = id;
      continue;
    }
    out.record = { ...base, reasoning: `${valueWords(held.value)} and ${valueWords(c.value)} cannot both be true, and nothing says it changed`, temporalSignal: false, state: 'open', strategy: '', detail: '' };
    out.reliability.push({ side: old, from: held.reliability, to: 'contradicted', reason: 'contradiction', uncertaintyId: id });
    out.verdict = stronger(out.verdict, 'contradiction');
    out.uncertaintyId = id;
    out.surface = { uncertaintyId: id, reason: 'contradiction', key: c.key, heldValue: held.value, statedValue: c.value, severity: base.severity, surfacedCount: 0, usedPhrasingIds: [] };
  }

  function evidence(u: UncertaintyRecord, c: StatedCandidate) {
    // The restated side as memory is about to hold it: one more statement, confirmed once more (§12.3).
    const sides = u.sides.map((s) => (s.value === c.value ? { ...s, statements: s.statements + 1, confidence: Math.min(CONFIDENCE.max, s.confidence + CONFIDENCE.confirmStep) } : s));
    const won = evidenceWinner(sides);
    if (!won) return;
    const winner = u.sides.find((s) => s.value === won.winner.value)!;
    const loser = u.sides.find((s) => s.value === won.loser.value)!;
    resolve(u, { strategy: 'evidence_resolved', detail: `${valueWords(winner.value)} restated: ${evidenceOf(won.winner).toFixed(2)} against ${evidenceOf(won.loser).toFixed(2)}`, winnerId: winner.id, loserId: loser.id }, winner, loser, 'superseded');
    if (loser.id) out.contradictedMemoryIds.push(loser.id);
  }

  // "Surfacing Strategy": with nothing just raised, an open uncertainty whose context matches.
  if (!out.surface && out.verdict !== 'answer') out.surface = selectSurface(input.text, input.open.filter((u) => !resolved.has(u.uncertaintyId) && u.uncertaintyId !== input.answering?.uncertaintyId), tolerance);
  out.contradictedMemoryIds = [...new Set(out.contradictedMemoryIds)];
  return out;
}

/**
 * "Surfacing Strategy" 2 and 4 and "Uncertainty Tolerance": the most severe open
 * uncertainty whose surface context the message meets, severe enough for the
 * user's tolerance, surfaced fewer than the anti-nag limit and not stepped down.
 */
export function selectSurface(text: string, open: readonly UncertaintyRecord[], tolerance: number): SurfacePlan | null {
  const eligible = open
    .filter((u) => u.type === 'contradiction' && (u.state === 'open' || u.state === 'surfaced') && !u.steppedDown && u.surfacedCount < UNCERTAINTY_CONFIG.maxSurfacings)
    .filter((u) => UNCERTAINTY_CONFIG.severityWeight[u.severity] >= tolerance && u.sides.length === 2 && contextMatches(text, u.surfaceCues))
    .sort((a, b) => SEVERITIES.indexOf(b.severity) - SEVERITIES.indexOf(a.severity) || a.createdAt.getTime() - b.createdAt.getTime());
  const u = eligible[0];
  if (!u) return null;
  return { uncertaintyId: u.uncertaintyId, reason: 'surfacing', key: u.key, heldValue: u.sides[0]!.value, statedValue: u.sides[1]!.value, severity: u.severity, surfacedCount: u.surfacedCount, usedPhrasingIds: u.usedPhrasingIds };
}

export type { NewUncertainty, ReliabilityChange, MatchView };
