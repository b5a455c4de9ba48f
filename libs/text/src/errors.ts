/** One thing wrong with a topic lexicon, and where. */
export interface TopicLexiconProblem {
  /** Where in the lexicon, e.g. `topics.POLITICS[3][1]`, or `<file>` for unreadable JSON. */
  readonly path: string;
  /** What is wrong, e.g. `"Election" is not in normalized form (expected "election")`. */
  readonly problem: string;
}

/**
 * A topic lexicon does not satisfy turn-pipeline §2.8/§5.1. Names every problem at
 * once, so one edit of the data file fixes them all. Not retryable.
 */
export class TopicLexiconError extends Error {
  override readonly name = 'TopicLexiconError';
  readonly code = 'TOPIC_LEXICON_INVALID' as const;
  readonly problems: readonly TopicLexiconProblem[];

  constructor(problems: readonly TopicLexiconProblem[], options?: { cause?: unknown }) {
    const lines = problems.map((p) => `  ${p.path}: ${p.problem}`);
    super(`Invalid topic lexicon (${problems.length} problem(s)):\n${lines.join('\n')}`, options);
    this.problems = Object.freeze([...problems]);
  }
}
