/** One environment variable that failed validation, and why. */
export interface ConfigProblem {
  /** The environment variable's name (or `<config>` for a rule spanning several). */
  readonly variable: string;
  /** What is wrong with it, e.g. `missing` or the schema's message. */
  readonly problem: string;
}

/**
 * The environment does not satisfy a service's config schema. Thrown once, at start,
 * naming every offending variable so the operator can fix them all in one go.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  readonly code = 'CONFIG_INVALID' as const;
  /** Names of the offending variables, sorted, without duplicates. */
  readonly variables: readonly string[];
  /** Each offending variable with its reason, in schema order. */
  readonly problems: readonly ConfigProblem[];

  constructor(problems: readonly ConfigProblem[], options?: { cause?: unknown }) {
    const lines = problems.map((p) => `  ${p.variable}: ${p.problem}`);
    super(`Invalid configuration (${problems.length} problem(s)):\n${lines.join('\n')}`, options);
    this.problems = Object.freeze([...problems]);
    this.variables = Object.freeze([...new Set(problems.map((p) => p.variable))].sort());
  }
}
