import type { NodeView } from '@hearth/beliefs';
import { GATES, type Stage } from '../config.js';
import type { StableStyle } from '../personas/assign.js';
import { emojiGate } from './emoji.js';
import { personalFactsGate, type ReplySource } from './facts.js';
import { intimacyGate } from './intimacy.js';
import { lexiconGate } from './lexicon.js';
import { quirksGate } from './quirks.js';
import { openerGate, openerNorm, similarityGate } from './repetition.js';
import { safetyGate } from './safety.js';
import { selfConsistencyGate } from './self-consistency.js';
import { sentenceGate } from './sentences.js';
import { sensitiveGate, type SurfacedMemory } from './sensitive.js';
import { tabooGate } from './topics.js';
import { uncertainAssertionGate, type AskedUncertainty, type WithheldValue } from './uncertain-assertion.js';
import { GATE_NAMES, type GateName, type GateVerdict } from './verdict.js';

/** A gate the caller may skip; safety is never skipped. */
export type ExemptGate = Exclude<GateName, 'safety'>;

export interface ReplyUnderReview {
  /** The assistant reply. */
  text: string;
  style: StableStyle;
  stage: Stage;
  source: ReplySource;
  /** The memories whose ids are in surfaced_memory_ids. */
  surfaced: SurfacedMemory[];
  /**
   * assistant_message.surfaced_memory_ids, counted by the personal-facts gate (§10.1).
   * @default the memoryIds of `surfaced`
   */
  surfacedIds?: readonly string[];
  /** The user asked for recall this turn (`recallAsked` over the user's norm_no_punct). */
  recallAsked: boolean;
  /** TopicIDs user-initiated in the current message. */
  userInitiated: string[];
  /** TopicIDs user-initiated in the current or the previous 2 user messages (`initiatedWithin`). */
  initiatedRecent: string[];
  /** UserControls.suppressed_topics. */
  suppressedTopics: string[];
  /** PersonaTemplate.taboo_soft_bounds. */
  tabooSoftBounds: string[];
  /** Earlier assistant texts, newest first; only the first 20 are compared. */
  recentAssistant: string[];
  /**
   * The stored opener_norm of earlier assistant messages, newest first; only the first 20 are compared.
   * @default `openerNorm` of each of `recentAssistant`
   */
  recentOpeners?: readonly string[];
  /**
   * The companion's core beliefs (issue 16), as the belief graph answered them
   * for the turn: a reply that contradicts one fails `self_consistency`.
   * @default [] (nothing to be consistent with: the gate passes)
   */
  coreBeliefs?: readonly NodeView[];
  /**
   * The memories the reply must not assert (issue 17: the message contradicts
   * them, or they are not reliable): a statement naming one fails
   * `uncertain_assertion`. @default []
   */
  withheld?: readonly WithheldValue[];
  /**
   * The uncertainty the reply was given to ask about (issue 17), or null: its
   * sides are withheld too, and `uncertain_assertion` passes its question whole.
   * @default null
   */
  uncertainty?: AskedUncertainty | null;
  /**
   * Gates to skip, e.g. the persona bands for a refusal or a crisis-safe reply
   * (the caller decides). Skipped gates still appear, passing, with detail "exempt".
   * Safety is never skipped (not even through a cast).
   * @default []
   */
  exempt?: readonly ExemptGate[];
}

/**
 * Runs every §10 gate over one reply, in GATE_NAMES order (safety first), and
 * returns one verdict per gate. Pure: the same input gives the same verdicts.
 */
export function evaluateReply(input: ReplyUnderReview): GateVerdict[] {
  const exempt = new Set<GateName>((input.exempt ?? []).filter((g: GateName) => g !== 'safety'));
  const window = GATES.recentAssistantMessages;
  const recent = input.recentAssistant.slice(0, window);
  const recentOpeners = input.recentOpeners?.slice(0, window) ?? recent.map(openerNorm);
  const run: Record<GateName, () => GateVerdict> = {
    safety: () => safetyGate(input.text),
    emoji_band: () => emojiGate(input.text, input.style.emoji_freq),
    sentence_band: () => sentenceGate(input.text, input.style.msg_length_pref),
    lexicon: () => lexiconGate(input.text, input.style.lexicon_bias),
    punctuation_quirks: () => quirksGate(input.text, input.style.punctuation_quirks),
    intimacy: () => intimacyGate(input.text, input.stage),
    repeated_opener: () => openerGate(input.text, recentOpeners),
    similarity: () => similarityGate(input.text, recent),
    personal_facts: () =>
      personalFactsGate(input.surfacedIds ?? input.surfaced.map((m) => m.memoryId), { source: input.source, recallAsked: input.recallAsked }),
    sensitive_memories: () => sensitiveGate(input.surfaced, input.userInitiated, input.source),
    taboo_topics: () =>
      tabooGate(input.text, {
        suppressed: input.suppressedTopics,
        tabooSoft: input.tabooSoftBounds,
        initiatedNow: input.userInitiated,
        initiatedRecent: input.initiatedRecent,
      }),
    self_consistency: () => selfConsistencyGate(input.text, input.coreBeliefs ?? []),
    uncertain_assertion: () => uncertainAssertionGate(input.text, input.withheld ?? [], input.uncertainty ?? null),
  };
  return GATE_NAMES.map((gate) => (exempt.has(gate) ? { gate, pass: true, detail: 'exempt', measured: { exempt: 1 } } : run[gate]()));
}

/** The gates that failed, in evaluation order. */
export function failedGates(verdicts: readonly GateVerdict[]): GateName[] {
  return verdicts.filter((v) => !v.pass).map((v) => v.gate);
}
