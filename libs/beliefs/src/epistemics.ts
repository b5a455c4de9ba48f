import { BELIEF_CONFIG, type BeliefType, type Modality, type TemporalScope } from './config.js';
import { CONDITION_OPENERS, DEGREE_CUES, EPISTEMIC_CUES } from './lexicon.js';
import { expandContractions, phraseIndexes, words } from './text.js';
import type { EpistemicsResult } from './types.js';

const cfg = BELIEF_CONFIG.epistemics;
type Scope = Exclude<TemporalScope, 'unknown'>;

/** Cue lists with their contractions expanded the way texts are ("don't" → "do not"). */
const norm = (cues: readonly string[]) => [...new Set(cues.map((c) => words(expandContractions(c)).join(' ')))];
// "don't" expands to "do not": its cue is the "not".
const NEGATION = [...new Set(norm(EPISTEMIC_CUES.negation).map((c) => (c.endsWith(' not') ? 'not' : c)))];
const MODALITY: readonly (readonly [Modality, string[]])[] = [
  ['unsure', norm(EPISTEMIC_CUES.modality.unsure)],
  ['possible', norm(EPISTEMIC_CUES.modality.possible)],
  ['likely', norm(EPISTEMIC_CUES.modality.likely)],
];
const TEMPORAL: readonly (readonly [Scope, string[]])[] = [
  ['past', norm(EPISTEMIC_CUES.past)],
  ['transitional', norm(EPISTEMIC_CUES.transitional)],
  ['habitual', norm([...EPISTEMIC_CUES.habitual_strong, ...EPISTEMIC_CUES.habitual_soft])],
  ['ongoing', norm(EPISTEMIC_CUES.ongoing)],
  ['state', norm(EPISTEMIC_CUES.state)],
];
const DEGREE_UP = norm(DEGREE_CUES.up);
const DEGREE_DOWN = norm(DEGREE_CUES.down);
/** Certainty order: a modality cue can only lower it ("caps certainty"). */
const CERTAINTY: Record<Modality, number> = { certain: 3, likely: 2, possible: 1, unsure: 0 };

interface Hit {
  cue: string;
  at: number;
  length: number;
}

function hits(ws: readonly string[], cues: readonly string[]): Hit[] {
  return cues.flatMap((cue) => phraseIndexes(ws, cue).map((at) => ({ cue, at, length: cue.split(' ').length })));
}
const inside = (h: Hit, spans: readonly Hit[]) => spans.some((s) => h.at >= s.at && h.at < s.at + s.length);

/**
 * §4.7 rules engine, in the spec's order: negation (→ deny), modality (caps
 * certainty: the least certain cue wins), temporal scope (highest specificity,
 * then rightmost), degree (intensifiers up, softeners down). "never" is both a
 * negation and a habitual cue. "not" inside a modality cue ("not sure") is not a
 * negation. The condition is the rest of the clause after "if"/"when"/"unless".
 *
 * Confidence (config `epistemics.confidence`): `base` for clean cues; less
 * `noCue` when nothing matched (the frame is the default, which is fine for a
 * trait); less `feelingNoTemporal` for a FEELING_STATE without a temporal cue
 * (a moment or a habit cannot be told apart); less `mixedTemporal` when cues of
 * two or more scopes compete and less `mixedModality` when two modalities do.
 * The last three drop it under llmFallbackThreshold, so `needsLlmFallback` fires.
 */
export function epistemicsOf(text: string, beliefType?: BeliefType): EpistemicsResult {
  const ws = words(expandContractions(text));
  const signals: string[] = [];

  const modalityHits = MODALITY.flatMap(([m, cues]) => hits(ws, cues).map((h) => ({ m, h })));
  const negations = hits(ws, NEGATION).filter((h) => !inside(h, modalityHits.map((x) => x.h)));
  for (const n of negations) signals.push(`negation:${n.cue}`);

  let modality: Modality = 'certain';
  for (const { m, h } of modalityHits) {
    signals.push(`modality:${m}:${h.cue}`);
    if (CERTAINTY[m] < CERTAINTY[modality]) modality = m;
  }

  const temporalHits = TEMPORAL.flatMap(([scope, cues]) => hits(ws, cues).map((h) => ({ scope, h })));
  let temporalScope: TemporalScope = 'unknown';
  let best: { scope: Scope; at: number } | null = null;
  for (const { scope, h } of temporalHits) {
    signals.push(`temporal:${scope}:${h.cue}`);
    const spec = cfg.temporalSpecificity[scope];
    if (!best || spec > cfg.temporalSpecificity[best.scope] || (spec === cfg.temporalSpecificity[best.scope] && h.at > best.at)) best = { scope, at: h.at };
  }
  if (best) temporalScope = best.scope;

  const up = hits(ws, DEGREE_UP);
  const down = hits(ws, DEGREE_DOWN);
  for (const h of up) signals.push(`degree:up:${h.cue}`);
  for (const h of down) signals.push(`degree:down:${h.cue}`);
  const degree = clamp01(cfg.degree.base + cfg.degree.up * up.length - cfg.degree.down * down.length);

  const distinctScopes = new Set(temporalHits.map((t) => t.scope)).size;
  const distinctModalities = new Set(modalityHits.map((x) => x.m)).size;
  const c = cfg.confidence;
  let confidence: number = c.base;
  if (signals.length === 0) confidence -= c.noCue;
  if (beliefType === 'FEELING_STATE' && temporalHits.length === 0) confidence -= c.feelingNoTemporal;
  if (distinctScopes > 1) confidence -= c.mixedTemporal;
  if (distinctModalities > 1) confidence -= c.mixedModality;
  confidence = round(clamp01(confidence));

  return {
    frame: { temporalScope, modality, degree: round(degree), conditional: conditionOf(ws) },
    confidence,
    signals,
    needsLlmFallback: confidence < cfg.llmFallbackThreshold,
    detectedPolarity: negations.length > 0 ? 'deny' : 'affirm',
  };
}

/** "i get quiet when i am tired" → "when i am tired"; a leading condition ends before the main clause's "i". */
function conditionOf(ws: readonly string[]): string {
  for (let i = 0; i < ws.length; i++) {
    const opener = CONDITION_OPENERS.find((o) => phraseIndexes(ws.slice(i), o)[0] === 0);
    if (!opener) continue;
    const from = i + opener.split(' ').length;
    if (from >= ws.length) return '';
    const mainSubject = i === 0 ? ws.indexOf('i', from + 2) : -1;
    return ws.slice(i, mainSubject > 0 ? mainSubject : ws.length).join(' ');
  }
  return '';
}

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const round = (x: number) => Math.round(x * 1e6) / 1e6;
