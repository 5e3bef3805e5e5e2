import type { z } from 'zod';

/**
 * Exit status of a process that refuses its configuration (EX_CONFIG of sysexits.h): starting it
 * again cannot help, so a supervisor that sees it stops rather than restarts.
 */
export const CONFIG_EXIT_CODE = 78;

/** Raised when the environment does not satisfy a schema; the message names every bad variable. */
export class ConfigError extends Error {
  readonly variables: string[];
  readonly exitCode = CONFIG_EXIT_CODE;

  constructor(issues: { variable: string; problem: string }[]) {
    super(`invalid configuration:\n${issues.map(({ variable, problem }) => `  ${variable}: ${problem}`).join('\n')}`);
    this.name = 'ConfigError';
    this.variables = issues.map(({ variable }) => variable);
  }
}

/**
 * Parses environment variables with a zod object schema whose keys are the variable names.
 * Empty strings, and strings of spaces, count as unset, so `FOO=` falls back to the default
 * instead of failing (a number coerced from spaces would otherwise be 0: no limit, any port).
 */
export function parseEnv<Schema extends z.ZodObject>(schema: Schema, env: Record<string, string | undefined>): z.infer<Schema> {
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
