// Every number of the uncertainty engine, each with the section of
// uncertainty-engine.md it comes from ("Hearth" where the spec leaves it open).
// One typed object, shared by the uncertainty service, memory's retrieval
// weights, the orchestrator's weave and the benchmarks.

export const RELIABILITY_STATES = ['reliable', 'uncertain', 'contradicted', 'superseded'] as const;
export type Reliability = (typeof RELIABILITY_STATES)[number];
export type UncertaintyType = 'contradiction' | 'unverified' | 'stale' | 'ambiguous';
export type Severity = 'low' | 'medium' | 'high' | 'critical';
export type DetectionContext = 'ingestion' | 'drift' | 'pre_action' | 'consolidation';
export type UncertaintyState = 'open' | 'surfaced' | 'resolved' | 'decayed';
export type Strategy = 'temporal_supersede' | 'user_clarified' | 'evidence_resolved' | 'confidence_dominance' | 'decayed';
/** Trait = memory FACT/PREFERENCE, episode = RELATIONSHIP_EVENT/EMOTIONAL_PATTERN, concept = a belief node (specs/README.md). */
export type Store = 'trait' | 'episode' | 'concept';
/** ContradictionClassifierService's output, plus what the offline rules add: a restatement and a correction. */
export type Classification = 'compatible' | 'reinforcement' | 'temporal_change' | 'correction' | 'true_contradiction' | 'context_dependent' | 'figurative';
/** What the reply is told about its user message. */
export type Verdict = 'none' | 'reinforcement' | 'temporal_change' | 'correction' | 'contradiction' | 'answer';

export const UNCERTAINTY_CONFIG = {
  /** "Memory Reliability Model": decay multiplier per state. */
  decayMultiplier: { reliable: 1.0, uncertain: 1.5, contradicted: 2.0, superseded: 3.0 } satisfies Record<Reliability, number>,
  /** "Memory Reliability Model": reliability_factor of assembly_weight. */
  reliabilityFactor: { reliable: 1.0, uncertain: 0.6, contradicted: 0.4, superseded: 0.2 } satisfies Record<Reliability, number>,
  /** "Memory Reliability Model": reliability_floor. */
  reliabilityFloor: 0.3,
  /**
   * Hearth (the spec leaves them open): the natural confidence half-life per memory
   * category, in days, before the state's multiplier divides it. Facts about a life
   * (city, job, school) change over years; tastes over seasons; an event or a mood
   * pattern fades within months.
   */
  halfLifeDays: { FACT: 365, PREFERENCE: 180, RELATIONSHIP_EVENT: 90, EMOTIONAL_PATTERN: 60 } as Record<string, number>,
  /** Hearth: base_type_weight of assembly_weight per memory category (traits before episodes, "Severity": traits are beliefs). */
  baseTypeWeight: { FACT: 1.0, PREFERENCE: 0.9, RELATIONSHIP_EVENT: 0.8, EMOTIONAL_PATTERN: 0.7 } as Record<string, number>,
  /** "Natural Decay": a contradicted or uncertain side whose decayed confidence falls below this is resolved `decayed` (Hearth's floor). */
  decayFloor: 0.15,
  /** "Context 1": the check is time-boxed (Implementation Status, Phase 2: 600 ms)… */
  ingestionTimeBoxMs: 600,
  /** …and its pre-screen is fast (< 50 ms). */
  prescreenBudgetMs: 50,
  /** "Severity Classification": store pair → severity. */
  severity: {
    'trait|trait': 'critical',
    'concept|trait': 'high',
    'concept|concept': 'high',
    'episode|trait': 'medium',
    'concept|episode': 'medium',
    'episode|episode': 'low',
    solo: 'low',
  } satisfies Record<string, Severity>,
  /** "Resolution Strategies": evidence resolution when one side's reinforced confidence exceeds the other's by this factor… */
  evidenceRatio: 2,
  /** …and confidence dominance at a gap above this factor, explicit over inferred. */
  dominanceRatio: 2,
  /** "Surfacing Strategy" 4 / Phase 4: after this many surfacings without an answer it steps down and stops. */
  maxSurfacings: 3,
  /** "Uncertainty Tolerance" / Phase 4. */
  tolerance: { baseline: 0.5, min: 0.2, max: 0.8, correctionStep: -0.03, reinforcementStep: 0.01 },
  /**
   * Hearth: how tolerance drives surfacing ("Affects: surfacing threshold"): an
   * uncertainty is raised when its severity's weight is at least the tolerance
   * (0.5: medium and up; 0.2: all; 0.8: critical only).
   */
  severityWeight: { low: 0.25, medium: 0.5, high: 0.75, critical: 1.0 } satisfies Record<Severity, number>,
  /** "Context 2" / Phase 2: the drift budget per cycle, and RECONCILE's cooldown (30 min). */
  drift: {
    budgetMin: 10,
    budgetMax: 20,
    cooldownMs: 30 * 60 * 1000,
    /** "Topic domain rotation" (cycle 1: work, 2: personal, 3: relationships, 4: hobbies). */
    domains: ['work', 'personal', 'relationships', 'hobbies'] as const,
    /** Hearth: sampling weights (recency half-life in days; access and strength as given). */
    recencyHalfLifeDays: 14,
    accessWeight: 0.5,
    strengthWeight: 1.0,
  },
  /** "stale": Hearth — a singleton fact neither restated nor confirmed for this long may be outdated. */
  staleAfterDays: 730,
  /** Hearth: the longest value quoted in a question. */
  quoteMaxChars: 60,
} as const;

export type DriftDomain = (typeof UNCERTAINTY_CONFIG.drift.domains)[number];

/** Severity steps (anti-nag steps one down). */
export const SEVERITIES: readonly Severity[] = ['low', 'medium', 'high', 'critical'];
