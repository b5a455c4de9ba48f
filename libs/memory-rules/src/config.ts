/**
 * The memory rules' fixed lists and numbers (turn-pipeline §12.3.1 key formats; issue 15's broad
 * extractor), shared by memory (which stores what they find) and uncertainty (which checks a
 * message against what is stored before the reply).
 */
export const MEMORY_KEYS = {
  /** §12.3.1 A: the singleton FACT keys. */
  factFields: ['home_country', 'home_city', 'current_city', 'timezone', 'occupation', 'school', 'major', 'language_primary'],
  /** §12.3.1 B: PREFERENCE categories. */
  preferenceCategories: ['food', 'drink', 'music', 'movie_genre', 'game', 'sport', 'hobby', 'study_style'],
  /** §12.3.1 C: RELATIONSHIP_EVENT domains. */
  eventDomains: ['school', 'work', 'travel', 'relationship', 'family', 'health', 'other'],
  /** §12.3.1 D: EMOTIONAL_PATTERN ids. */
  emotionPatterns: ['baseline_mood', 'stress_trigger_school', 'stress_trigger_work', 'coping_preference', 'social_energy'],
  /** §12.3.1 slug rules: at most 48 characters, truncated deterministically. */
  slugMaxChars: 48,
} as const;

export type FactField = (typeof MEMORY_KEYS.factFields)[number];
export type PreferenceCategory = (typeof MEMORY_KEYS.preferenceCategories)[number];
export type EventDomain = (typeof MEMORY_KEYS.eventDomains)[number];
export type EmotionPattern = (typeof MEMORY_KEYS.emotionPatterns)[number];

/**
 * The broad extractor (issue 15: memory that covers real talk, inside §12.3.1's
 * formats). Tuned on LoCoMo conversations 1–5 with `pnpm eval:recall`.
 */
export const BROAD = {
  /** Words a sentence needs at all (after leading fillers). */
  minWords: 4,
  /** Content words (nouns, verbs, adjectives not in the stop list) it needs, one of them a noun. */
  minContentWords: 2,
  /** Content words an event slug keeps (§12.3.1 slugs stay ≤ 48 characters). */
  slugMaxWords: 6,
  /** The user's words kept as the value (§13 snippets are at most 160 characters). */
  valueMaxChars: 160,
  /** Broad memories one message gives at most, its longest sentences first. */
  maxPerMessage: 3,
} as const;

/** §12.3, §12.3.2: confidence. */
export const CONFIDENCE = {
  /** §12.3: heuristic-only extraction. */
  heuristic: 0.6,
  /** §12.3: LLM-extracted. */
  llm: 0.75,
  /** §12.3: the same key and value again adds this much… */
  confirmStep: 0.15,
  /** …up to this. */
  max: 1.0,
  /** §12.3.2 rule 2: an opposite stance starts at min(init, 0.55). */
  oppositeStanceCap: 0.55,
} as const;
