/**
 * The orchestrator's numbers and fixed lists, each with its spec section.
 * Later issues (anti-cloning cap, quality gates, relationships) add theirs here.
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
} as const;

/** The offline provider's name and model, recorded in every LlmExchange. */
export const OFFLINE_PROVIDER = { provider: 'offline-template', model: 'template-v0' } as const;
