/** §12.1: the memory types. */
export type MemoryType = 'FACT' | 'PREFERENCE' | 'RELATIONSHIP_EVENT' | 'EMOTIONAL_PATTERN';

/** Who extracted a candidate: the heuristic, the LLM, or the LLM's offline stand-in. */
export type Extractor = 'heuristic' | 'llm' | 'offline';

/** One extracted memory, already canonical (§12.3.1): a valid key and its value. */
export interface Candidate {
  type: MemoryType;
  key: string;
  /** FACT: the value, lowercased; PREFERENCE: `like|<item>` or `dislike|<item>`; others: a short summary. */
  value: string;
  extractor: Extractor;
  /** When what it tells happened, as the user stated it (an event's key month follows it). */
  occurred?: StatedTime;
}

/** A time the user stated, resolved against the turn's time (UTC calendar). */
export interface StatedTime {
  /** YYYY-MM-DD: the day, or the first day of the week, month or year. */
  on: string;
  precision: 'day' | 'week' | 'month' | 'year';
  /** The words that stated it ("yesterday", "last May"). */
  text: string;
}
