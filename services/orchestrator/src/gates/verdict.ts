/** The post-processing gates of turn-pipeline §10, in the order `evaluateReply` runs them (safety first). */
export const GATE_NAMES = [
  'safety',
  'emoji_band',
  'sentence_band',
  'lexicon',
  'punctuation_quirks',
  'intimacy',
  'repeated_opener',
  'similarity',
  'personal_facts',
  'sensitive_memories',
  'taboo_topics',
  // Issue 16: the reply's self-statements against the companion's core beliefs.
  'self_consistency',
  // Issue 17: the reply states no memory it must withhold (the message contradicts it, or it is not reliable).
  'uncertain_assertion',
] as const;

export type GateName = (typeof GATE_NAMES)[number];

/** One gate's decision about one reply, kept whole in the audit record. */
export interface GateVerdict {
  gate: GateName;
  pass: boolean;
  /** Short human-readable reason, e.g. "emoji_count 3 not in [0,2] (light)". */
  detail: string;
  /** What was measured, for the audit record. */
  measured: Record<string, string | number>;
}
