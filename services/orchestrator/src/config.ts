/**
 * The orchestrator's numbers and fixed lists, each with its spec section.
 * Later issues (quality gates, relationships) add theirs here.
 */
export const PERSONA = {
  /** turn-pipeline §3.2: library size. */
  librarySize: 24,
  /** turn-pipeline §3.2.1: the ten archetypes. */
  archetypes: [
    'Calm Listener',
    'Warm Caregiver',
    'Blunt Honest',
    'Dry Humor',
    'Playful Tease',
    'Chaotic Internet Friend',
    'Gentle Coach',
    'Soft Nerd',
    'Hype Bestie',
    'Low-Key Companion',
  ],
  /** turn-pipeline §3.2.1: the modifier categories sampling may mutate, in draw order. */
  categories: ['speech_style', 'humor_mode', 'friend_energy'],
  /** turn-pipeline §3.2.1: exactly two categories are mutated unless the cap forces a third. */
  mutatedCategories: 2,
  /** turn-pipeline §3.4, §3.4.1: the anti-cloning cap on combo keys. */
  antiCloning: {
    /** §3.4.1: rolling 24 h window of earlier assignments. */
    windowMs: 24 * 60 * 60 * 1000,
    /** §3.4: no combo key above 7% of new assignments. */
    maxShare: 0.07,
    /** §3.4.1: MAX_RESAMPLES after the first sample, then the fallback. */
    maxResamples: 50,
  },
  /**
   * Tries at appending to the global assignment log when other replicas keep
   * winning the race (not a spec number: enough for many replicas onboarding
   * at once, since each process queues its own assignments).
   */
  assignAttempts: 100,
} as const;

/** The offline provider's name and model, recorded in every LlmExchange. */
export const OFFLINE_PROVIDER = { provider: 'offline-template', model: 'template-v0' } as const;
