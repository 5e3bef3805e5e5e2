import { z } from 'zod';

export const VARIABLE_TYPE = 'STRING_VARIABLE';
export const DEFAULT_STEP_TIMEOUT_MS = 60_000;
export const MAX_STEP_TIMEOUT_MS = 24 * 60 * 60 * 1000;

// "__proto__" would be a prototype, not a key, in the plain objects names end up in.
const notProto = (name: string) => name !== '__proto__';
const variableName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'names are letters, digits and "_", not starting with a digit')
  .refine(notProto, 'this name is reserved');
const description = z.string().trim().min(1, 'a description is required');

export const inputDefinitionSchema = z.strictObject({
  description,
  type: z.literal(VARIABLE_TYPE).default(VARIABLE_TYPE),
  required: z.boolean().default(false),
  default: z.string().optional(),
  /**
   * A value to keep secret (a token, a password): sealed in the execution record like the inputs
   * a run takes from a preset, never stored in clear.
   */
  secret: z.boolean().optional(),
});

export const outputDefinitionSchema = z.strictObject({
  description,
  type: z.literal(VARIABLE_TYPE).default(VARIABLE_TYPE),
  /** A template; the output is absent while something it references is not available. */
  value: z.string(),
});

export const retryPolicySchema = z.strictObject({
  /** Total attempts, the first included. */
  attempts: z.number().int().min(1).max(10),
  /** Wait before the second attempt; doubles for each further one. */
  backoffMs: z
    .number()
    .int()
    .min(0)
    .max(10 * 60 * 1000)
    .default(0),
});

export const stepDefinitionSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'step ids are letters, digits, "_" and "-", not starting with a digit or "-"')
    .refine(notProto, 'this id is reserved'),
  kind: z.string().min(1),
  description: z.string().optional(),
  args: z.record(z.string(), z.unknown()).default({}),
  timeoutMs: z.number().int().positive().max(MAX_STEP_TIMEOUT_MS).optional(),
  retry: retryPolicySchema.optional(),
});

export const choreoDefinitionSchema = z.strictObject({
  description,
  /** Wall-clock limit of a run; the service's default applies when absent. */
  timeLimitSeconds: z
    .number()
    .int()
    .positive()
    .max(7 * 24 * 60 * 60)
    .optional(),
  inputs: z.record(variableName, inputDefinitionSchema).default({}),
  outputs: z.record(variableName, outputDefinitionSchema).default({}),
  steps: z.array(stepDefinitionSchema).min(1, 'a Choreo needs at least one step').max(1000),
});

export type InputDefinition = z.output<typeof inputDefinitionSchema>;
export type OutputDefinition = z.output<typeof outputDefinitionSchema>;
export type RetryPolicy = z.output<typeof retryPolicySchema>;
export type StepDefinition = z.output<typeof stepDefinitionSchema>;
export type ChoreoDefinition = z.output<typeof choreoDefinitionSchema>;
