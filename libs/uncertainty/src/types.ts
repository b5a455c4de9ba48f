import type { Classification, DetectionContext, Reliability, Severity, Store, Strategy, UncertaintyState, UncertaintyType, Verdict } from './config.js';

/** A memory as uncertainty mirrors it (from memory's events). */
export interface HeldMemory {
  memoryId: string;
  /** FACT | PREFERENCE | RELATIONSHIP_EVENT | EMOTIONAL_PATTERN */
  type: string;
  key: string;
  value: string;
  confidence: number;
  status: 'ACTIVE' | 'SUPERSEDED' | 'INVALID';
  reliability: Reliability;
  /** heuristic (an anchored first-person statement: explicit) | llm | offline (a broader reading: inferred) */
  extractor: string;
  /** User messages that stated it: 1 + confirmations. */
  statements: number;
  /** Replies that surfaced it. */
  accessCount: number;
  createdAt: Date;
  lastConfirmedAt: Date;
  topicIds: readonly string[];
  sourceMessageId: string;
}

/** What the message states, as memory's rules read it (libs/memory-rules). */
export interface StatedCandidate {
  type: string;
  key: string;
  value: string;
  extractor: string;
}

/** One side of an uncertainty. A side the checked message stated has no memory yet (memoryId ""). */
export interface Side {
  kind: 'memory' | 'belief';
  id: string;
  store: Store;
  key: string;
  value: string;
  confidence: number;
  source: 'explicit' | 'inferred';
  sourceMessageId: string;
  statements: number;
}

/** An uncertainty record as the domain reads it (the `uncertainties` projection). */
export interface UncertaintyRecord {
  uncertaintyId: string;
  type: UncertaintyType;
  severity: Severity;
  state: UncertaintyState;
  key: string;
  sides: Side[];
  surfaceCues: readonly string[];
  surfacedCount: number;
  steppedDown: boolean;
  usedPhrasingIds: readonly string[];
  sourceMessageIds: readonly string[];
  createdAt: Date;
}

export interface NewUncertainty {
  uncertaintyId: string;
  type: UncertaintyType;
  sides: Side[];
  severity: Severity;
  detectionContext: DetectionContext;
  reasoning: string;
  temporalSignal: boolean;
  surfaceContext: string;
  surfaceCues: string[];
  state: 'open' | 'resolved';
  strategy: Strategy | '';
  detail: string;
  sourceMessageIds: string[];
}

export interface Resolution {
  uncertaintyId: string;
  strategy: Strategy;
  detail: string;
  winnerId: string;
  loserId: string;
  /** resolved, or decayed for the natural-decay strategy. */
  state: 'resolved' | 'decayed';
}

export interface ReliabilityChange {
  side: Side;
  from: Reliability;
  to: Reliability;
  reason: string;
  uncertaintyId: string;
}

export interface ToleranceChange {
  from: number;
  to: number;
  reason: 'correction' | 'reinforcement';
}

export interface MatchView {
  key: string;
  statedValue: string;
  memoryId: string;
  storedValue: string;
  classification: Classification;
  cue: string;
}

/** What the reply should ask about, and what it needs to ask. */
export interface SurfacePlan {
  uncertaintyId: string;
  reason: 'contradiction' | 'surfacing';
  key: string;
  heldValue: string;
  statedValue: string;
  severity: Severity;
  surfacedCount: number;
  usedPhrasingIds: readonly string[];
}

export interface CheckDecision {
  verdict: Verdict;
  matches: MatchView[];
  /** The memories the message contradicts or corrects: no reply may assert them. */
  contradictedMemoryIds: string[];
  record: NewUncertainty | null;
  resolutions: Resolution[];
  reliability: ReliabilityChange[];
  tolerance: ToleranceChange | null;
  steppedDown: { uncertaintyId: string; from: Severity; to: Severity; surfacedCount: number } | null;
  surface: SurfacePlan | null;
  /** The uncertainty this message opened or resolved, "" for none. */
  uncertaintyId: string;
}
