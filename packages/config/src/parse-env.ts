import { z } from 'zod';

/** Raised when the environment does not satisfy a schema; the message names every bad variable. */
export class ConfigError extends Error {
  readonly variables: string[];

  constructor(issues: { variable: string; problem: string }[]) {
    super(
      `invalid configuration:\n${issues.map(({ variable, problem }) => `  ${variable}: ${problem}`).join('\n')}`,
    );
    this.name = 'ConfigError';
    this.variables = issues.map(({ variable }) => variable);
  }
}

/**
 * Parses environment variables with a zod object schema whose keys are the variable names.
 * Empty strings, and strings of spaces, count as unset, so `FOO=` falls back to the default
 * instead of failing (a number coerced from spaces would otherwise be 0: no limit, any port).
 */
export function parseEnv<Schema extends z.ZodObject>(
  schema: Schema,
  env: Record<string, string | undefined>,
): z.infer<Schema> {
  const present: Record<string, string> = {};
  for (const key of Object.keys(schema.shape)) {
    const value = env[key];
    if (value !== undefined && value.trim() !== '') present[key] = value;
  }
  const result = schema.safeParse(present);
  if (result.success) return result.data;
  throw new ConfigError(
    result.error.issues.map((issue) => ({
      variable: String(issue.path[0] ?? '(environment)'),
      problem: issue.message,
    })),
  );
}
