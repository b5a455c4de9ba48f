import type { BeliefType, Holder, Modality, NodeStatus, Polarity, SourceMode, Stream, TemporalScope } from './config.js';

/** §4.1 */
export interface SourceContext {
  mode: SourceMode;
  sourceWeight: number;
  /** `conversation_id:mode`, for diversity (§4.17). */
  contextId: string;
}

export interface Span {
  start: number;
  end: number;
}

/** §4.2 */
export interface ClaimCandidate {
  text: string;
  span: Span;
}

/** §4.3: what an atomizer (rules or LLM) gives. */
export interface RawAtom {
  /** The atom in affirmative first-person form ("i am patient"); polarity carries the negation. */
  atomText: string;
  beliefType: BeliefType;
  polarity: Polarity;
  confidence: number;
  /** Index into the claim candidates. */
  sourceIdx: number;
}

/** §4.4 */
export type RejectionReason = 'not_first_person' | 'imperative' | 'too_short' | 'question' | 'template_junk' | 'generic' | 'invalid_type';

export interface InvalidAtom {
  atom: RawAtom;
  reason: RejectionReason;
}

/** §4.7 */
export interface EpistemicFrame {
  temporalScope: TemporalScope;
  modality: Modality;
  degree: number;
  conditional: string;
}

export interface EpistemicsResult {
  frame: EpistemicFrame;
  confidence: number;
  /** The cues that matched, for the audit ("negation:not", "habitual:always"). */
  signals: string[];
  needsLlmFallback: boolean;
  detectedPolarity: Polarity;
}

/** §4.13 */
export interface StreamClassification {
  primary: Stream;
  secondary: Stream | '';
  confidence: number;
}

/** Phases 1–6 (and the stream of §4.13) of one atom, ready to embed and resolve. */
export interface PreparedAtom {
  atomText: string;
  /** The claim text the atom came from (the user's own words). */
  rawText: string;
  canonicalText: string;
  /** SHA256(canonical_text)[:32] */
  canonicalHash: string;
  beliefType: BeliefType;
  polarity: Polarity;
  atomConfidence: number;
  spans: Span[];
  epistemics: EpistemicsResult;
  /** The text to embed: what the belief is about, without holder and hedges. */
  embeddingText: string;
  stream: StreamClassification;
}

/** Phases 1–6 of one source text. */
export interface Decomposition {
  context: SourceContext;
  segments: ClaimCandidate[];
  atoms: PreparedAtom[];
  rejected: InvalidAtom[];
  duplicatesRemoved: number;
}

/** A node as resolution and the conflict engine see it (one user, one holder). */
export interface NodeView {
  beliefId: string;
  canonicalText: string;
  canonicalHash: string;
  polarity: Polarity;
  beliefType: BeliefType;
  temporalScope: TemporalScope;
  stream: Stream;
  vector: readonly number[];
}

/** §4.10 */
export type ResolutionOutcome = 'match' | 'no_match' | 'uncertain';

export interface Resolution {
  outcome: ResolutionOutcome;
  /** The matched node (match), or the best candidate in the band (uncertain). */
  matchedId: string | null;
  matchConfidence: number;
  candidateIds: string[];
  /** True when the best similarity is in the verifier band (§4.11) and the verifier may be asked. */
  inVerifierBand: boolean;
}

/** §4.15 */
export interface Conflict {
  nodeAId: string;
  nodeBId: string;
  conflictType: 'contradiction' | 'tension';
  /** polarity_flip and semantic_opposition (§4.15); exclusive_value (Hearth: one attribute, two values). */
  detectionMethod: 'polarity_flip' | 'semantic_opposition' | 'exclusive_value';
  similarity: number;
}

/** An occurrence as scoring sees it (§4.16, §4.17). */
export interface OccurrenceView {
  at: Date;
  sourceWeight: number;
  atomConfidence: number;
  contextId: string;
}

/** §4.17 */
export interface CoreScore {
  support: number;
  spread: number;
  diversity: number;
  base: number;
  conflictPenalty: number;
  coreScore: number;
  status: NodeStatus;
}

/** §4.14 */
export interface MigrationCheck {
  migrate: boolean;
  from: Stream;
  to: Stream;
  reason: string;
}

/** One atom's full decision in a graph step (phase 8–11). */
export interface AtomDecision {
  atom: PreparedAtom;
  vector: number[];
  resolution: Resolution;
  /** "" | same | different | failed (§4.11) */
  verifier: '' | 'same' | 'different' | 'failed';
  beliefId: string;
  created: boolean;
}

export interface LinkDecision {
  fromBeliefId: string;
  toBeliefId: string;
  support: 'both' | 'one';
  similarity: number;
  reason: string;
}

export interface GraphStep {
  atoms: AtomDecision[];
  links: LinkDecision[];
  conflicts: Conflict[];
}

export type { BeliefType, Holder, Modality, NodeStatus, Polarity, SourceMode, Stream, TemporalScope };
