import { LLM_EXTRACTION_GATE } from '../config.js';

/** Why the LLM extractor runs for a message (§12.2). */
export type LlmReason = 'length' | 'emotion' | 'repeat_key';

export interface GateInput {
  text: string;
  /** The turn's emotion reading (orchestrator's EmotionReading). */
  valence: number;
  tags: readonly string[];
  /** Keys the heuristic found in this message. */
  heuristicKeys: readonly string[];
  /** When each key last appeared (recorded or confirmed), any status. */
  lastSeen: ReadonlyMap<string, Date>;
  at: Date;
}

/**
 * §12.2: the LLM extractor runs only for a long message (≥ 200 characters), high
 * emotion (|valence| ≥ 0.6 or a strong tag), or a key that appeared within the
 * last 7 days and again now (pattern suspicion). Empty: the heuristic alone.
 */
export function llmReasons(input: GateInput): LlmReason[] {
  const reasons: LlmReason[] = [];
  if (Array.from(input.text.trim()).length >= LLM_EXTRACTION_GATE.minChars) reasons.push('length');
  const strong: readonly string[] = LLM_EXTRACTION_GATE.strongTags;
  if (Math.abs(input.valence) >= LLM_EXTRACTION_GATE.minAbsValence || input.tags.some((t) => strong.includes(t))) reasons.push('emotion');
  const repeated = input.heuristicKeys.some((k) => {
    const seen = input.lastSeen.get(k);
    return seen !== undefined && input.at.getTime() - seen.getTime() <= LLM_EXTRACTION_GATE.repeatWindowMs;
  });
  if (repeated) reasons.push('repeat_key');
  return reasons;
}
