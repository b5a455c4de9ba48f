import { BELIEF_CONFIG, type SourceMode } from './config.js';
import { MODE_CUES, PROFANITY_STEMS } from './lexicon.js';
import { expandContractions, words } from './text.js';
import type { SourceContext } from './types.js';

const cfg = BELIEF_CONFIG.sourceContext;
const ROLEPLAY_ACTION = /\*[^*\n]{2,}\*/;

/** Uppercase share of the letters, not counting a lone "I"; 0 under capsMinLetters letters. */
export function capsRatio(text: string): number {
  const letters = (text.replace(/\bI\b/g, '').match(/\p{L}/gu) ?? []).filter((c) => c.toLowerCase() !== c.toUpperCase());
  if (letters.length < cfg.capsMinLetters) return 0;
  return letters.filter((c) => c === c.toUpperCase()).length / letters.length;
}

export function hasProfanity(text: string): boolean {
  return words(text.toLowerCase()).some((w) => PROFANITY_STEMS.some((stem) => w.startsWith(stem)));
}

/** Share of the sentence-ending marks that are "!" (config: "of the sentence-ending marks"). */
export function exclaimDensity(text: string): number {
  const marks = text.match(/[.!?]/g) ?? [];
  return marks.length === 0 ? 0 : marks.filter((m) => m === '!').length / marks.length;
}

/** §4.1 heuristics, first hit wins: journaling, roleplay, heated, introspection, else normal_chat. */
// The cues in the form a text is compared in, expanded once.
const CUES = Object.fromEntries(Object.entries(MODE_CUES).map(([mode, cues]) => [mode, (cues as readonly string[]).map(expandContractions)])) as Record<keyof typeof MODE_CUES, string[]>;

export function inferMode(text: string): SourceMode {
  const lower = expandContractions(text);
  const has = (cues: readonly string[]) => cues.some((c) => lower.includes(c));
  if (has(CUES.journaling)) return 'journaling';
  if (ROLEPLAY_ACTION.test(text) || has(CUES.roleplay)) return 'roleplay';
  if (capsRatio(text) > cfg.capsRatio || hasProfanity(text) || has(CUES.heated)) return 'heated';
  if (has(CUES.introspection)) return 'introspection';
  return 'normal_chat';
}

/**
 * §4.1: the mode (given, else inferred), its base weight, minus the caps,
 * profanity and exclamation penalties (and VAD arousal, off), clamped to [0, 1];
 * `contextId` = `conversationId:mode` for diversity (§4.17).
 */
export function sourceContextOf(input: { text: string; conversationId: string; mode?: SourceMode; arousal?: number }): SourceContext {
  const mode = input.mode ?? inferMode(input.text);
  let weight: number = cfg.modeWeights[mode];
  if (capsRatio(input.text) > cfg.capsRatio) weight -= cfg.capsPenalty;
  if (hasProfanity(input.text)) weight -= cfg.profanityPenalty;
  if (exclaimDensity(input.text) > cfg.exclaimDensity) weight -= cfg.exclaimPenalty;
  weight -= (input.arousal ?? 0) * cfg.arousalWeight;
  return { mode, sourceWeight: Math.min(1, Math.max(0, round(weight))), contextId: `${input.conversationId}:${mode}` };
}

// Float noise (0.8 − 0.05 = 0.7500000000000001) would leak into events.
const round = (x: number) => Math.round(x * 1e6) / 1e6;
