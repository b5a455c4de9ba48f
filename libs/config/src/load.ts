import { z } from 'zod';
import { ConfigError, type ConfigProblem } from './errors.js';

/** The shape of `process.env`: variable names to string values. */
export type Env = Readonly<Record<string, string | undefined>>;

/** A deeply readonly view of `T`, matching what {@link loadConfig} returns at run time. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends Date
    ? T
    : T extends ReadonlyArray<infer U>
      ? ReadonlyArray<DeepReadonly<U>>
      : T extends object
        ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
        : T;

const ROOT_VARIABLE = '<config>';

/**
 * Parses the environment once against `schema` and returns the result deeply frozen.
 *
 * Empty values (`FOO=`) count as unset, so a blank line in an env file falls back to
 * the default instead of failing a number or URL check.
 *
 * @param schema usually `baseEnvSchema.extend({ ... })`.
 * @param env the variables to read.
 * @default env `process.env`
 * @throws {ConfigError} naming every missing or invalid variable.
 */
export function loadConfig<S extends z.ZodType>(
  schema: S,
  env: Env = process.env,
): DeepReadonly<z.output<S>> {
  const input: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined && value !== '') input[name] = value;
  }

  const result = schema.safeParse(input);
  if (!result.success) {
    throw new ConfigError(describeIssues(result.error, input), { cause: result.error });
  }
  return deepFreeze(result.data) as DeepReadonly<z.output<S>>;
}

function describeIssues(error: z.ZodError, input: Record<string, string>): ConfigProblem[] {
  return error.issues.map((issue) => {
    const head = issue.path[0];
    const variable = typeof head === 'string' ? head : ROOT_VARIABLE;
    const problem =
      variable !== ROOT_VARIABLE && input[variable] === undefined && issue.code === 'invalid_type'
        ? 'missing (required, no default)'
        : issue.message;
    return { variable, problem };
  });
}

function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  for (const key of Reflect.ownKeys(value)) {
    deepFreeze((value as Record<PropertyKey, unknown>)[key]);
  }
  return Object.freeze(value);
}
