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
  /**
   * A value to keep secret (a token): sealed in the execution record, never stored in clear, and
   * opened only in the answer to the run's caller.
   */
  secret: z.boolean().optional(),
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

const stepId = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_-]*$/, 'step ids are letters, digits, "_" and "-", not starting with a digit or "-"')
  .refine(notProto, 'this id is reserved');

export const stepDefinitionSchema = z.strictObject({
  id: stepId,
  kind: z.string().min(1),
  description: z.string().optional(),
  args: z.record(z.string(), z.unknown()).default({}),
  timeoutMs: z.number().int().positive().max(MAX_STEP_TIMEOUT_MS).optional(),
  retry: retryPolicySchema.optional(),
});

/** Most iterations one loop may run: a `forEach` list longer than this, or a `repeat` allowed more, is refused. */
export const MAX_LOOP_ITERATIONS = 100_000;
export const MAX_LOOP_CONCURRENCY = 100;

/** What a `catch` can select by: the kinds of failure a step or a block may end with. */
export const ERROR_TYPES = ['timeout', 'invalid', 'egress-refused', 'fail', 'limit', 'child-failed', 'error'] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/**
 * A condition: a template (or, later, an expression) that holds when it renders `true` (case and
 * surrounding spaces ignored), a comparison of a rendered value, or a combination of conditions.
 */
export type ConditionDefinition =
  | string
  | {
      value: string;
      equals?: string | undefined;
      notEquals?: string | undefined;
      in?: string[] | undefined;
      lessThan?: number | undefined;
      lessThanOrEqual?: number | undefined;
      greaterThan?: number | undefined;
      greaterThanOrEqual?: number | undefined;
      exists?: boolean | undefined;
    }
  | { all: ConditionDefinition[] }
  | { any: ConditionDefinition[] }
  | { not: ConditionDefinition };

export const COMPARISONS = ['equals', 'notEquals', 'in', 'lessThan', 'lessThanOrEqual', 'greaterThan', 'greaterThanOrEqual', 'exists'] as const;

const comparisonSchema = z
  .strictObject({
    value: z.string(),
    equals: z.string().optional(),
    notEquals: z.string().optional(),
    in: z.array(z.string()).optional(),
    lessThan: z.number().optional(),
    lessThanOrEqual: z.number().optional(),
    greaterThan: z.number().optional(),
    greaterThanOrEqual: z.number().optional(),
    exists: z.boolean().optional(),
  })
  .refine((comparison) => COMPARISONS.filter((name) => comparison[name] !== undefined).length === 1, {
    message: `a comparison has exactly one of ${COMPARISONS.join(', ')}`,
  });

export const conditionSchema: z.ZodType<ConditionDefinition> = chooseSchema(
  'a condition',
  (value) => {
    if (typeof value === 'string') return z.string();
    if (isObject(value)) {
      if ('all' in value) return z.strictObject({ all: z.array(conditionSchema).min(1) });
      if ('any' in value) return z.strictObject({ any: z.array(conditionSchema).min(1) });
      if ('not' in value) return z.strictObject({ not: conditionSchema });
      if ('value' in value) return comparisonSchema;
    }
    return undefined;
  },
  'a condition is a template, { "value": …, "<comparison>": … }, { "all": […] }, { "any": […] } or { "not": … }',
);

const blockBase = { id: stepId, description: z.string().optional() };
const body = (): z.ZodArray<z.ZodType<NodeDefinition>> => z.array(z.lazy(() => nodeSchema)).max(1000);
const nonEmptyBody = (): z.ZodArray<z.ZodType<NodeDefinition>> => body().min(1, 'a block needs at least one step');

const choiceSchema = z.strictObject({
  ...blockBase,
  choice: z.array(z.strictObject({ when: conditionSchema, steps: nonEmptyBody() })).min(1, 'a choice needs at least one branch'),
  default: body().default([]),
});

const forEachSchema = z.strictObject({
  ...blockBase,
  /** A template rendering a JSON array (a reference to an array renders as one). */
  forEach: z.string(),
  /** A number, or a template or expression giving one (checked when the loop starts). */
  concurrency: z.union([z.number().int().min(1).max(MAX_LOOP_CONCURRENCY), z.string()]).default(1),
  steps: nonEmptyBody(),
});

const repeatSchema = z.strictObject({
  ...blockBase,
  repeat: z.strictObject({
    /** `{{loop.item}}` of the first iteration. */
    item: z.string().optional(),
    /** Rendered after an iteration whose `until` does not hold: `{{loop.item}}` of the next one. */
    nextItem: z.string().optional(),
    until: conditionSchema,
    maxIterations: z.number().int().min(1).max(MAX_LOOP_ITERATIONS),
  }),
  steps: nonEmptyBody(),
});

const parallelSchema = z.strictObject({
  ...blockBase,
  parallel: z.array(nonEmptyBody()).min(2, 'parallel needs at least two branches').max(MAX_LOOP_CONCURRENCY),
});

const trySchema = z
  .strictObject({
    ...blockBase,
    try: nonEmptyBody(),
    catch: z.array(z.strictObject({ errors: z.array(z.enum(ERROR_TYPES)).min(1).optional(), steps: body() })).optional(),
    finally: body().optional(),
  })
  .refine((block) => block.catch !== undefined || block.finally !== undefined, { message: 'a try block needs "catch", "finally" or both' });

const returnSchema = z.strictObject({ ...blockBase, return: z.record(z.string(), z.string()).default({}) });
const failSchema = z.strictObject({ ...blockBase, fail: z.string().min(1) });

const BLOCK_KEYS = ['kind', 'choice', 'forEach', 'repeat', 'parallel', 'try', 'return', 'fail'] as const;

export const nodeSchema: z.ZodType<NodeDefinition> = chooseSchema(
  'a step',
  (value) => {
    if (!isObject(value)) return undefined;
    const present = BLOCK_KEYS.filter((key) => key in value);
    if (present.length !== 1) return undefined;
    switch (present[0]) {
      case 'kind':
        return stepDefinitionSchema;
      case 'choice':
        return choiceSchema;
      case 'forEach':
        return forEachSchema;
      case 'repeat':
        return repeatSchema;
      case 'parallel':
        return parallelSchema;
      case 'try':
        return trySchema;
      case 'return':
        return returnSchema;
      case 'fail':
        return failSchema;
    }
    return undefined;
  },
  `a step is an object with exactly one of ${BLOCK_KEYS.map((key) => `"${key}"`).join(', ')}`,
);

/**
 * A union whose member is chosen by the value's shape, so that a mistake is reported against the
 * member meant, with its path, rather than as "invalid input" against all of them.
 */
function chooseSchema<T>(what: string, choose: (value: unknown) => z.ZodType | undefined, hint: string): z.ZodType<T> {
  return z.unknown().transform((value, context) => {
    const schema = choose(value);
    if (schema === undefined) {
      context.addIssue({ code: 'custom', message: `not ${what}: ${hint}` });
      return z.NEVER;
    }
    const parsed = schema.safeParse(value);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) context.addIssue({ code: 'custom', message: issue.message, path: issue.path as (string | number)[] });
      return z.NEVER;
    }
    return parsed.data as T;
  }) as unknown as z.ZodType<T>;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

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
  steps: z.array(nodeSchema).min(1, 'a Choreo needs at least one step').max(1000),
});

export type InputDefinition = z.output<typeof inputDefinitionSchema>;
export type OutputDefinition = z.output<typeof outputDefinitionSchema>;
export type RetryPolicy = z.output<typeof retryPolicySchema>;
export type StepDefinition = z.output<typeof stepDefinitionSchema>;
interface BlockBase {
  id: string;
  description?: string | undefined;
}
export interface ChoiceDefinition extends BlockBase {
  choice: { when: ConditionDefinition; steps: NodeDefinition[] }[];
  default: NodeDefinition[];
}
export interface ForEachDefinition extends BlockBase {
  forEach: string;
  concurrency: number | string;
  steps: NodeDefinition[];
}
export interface RepeatDefinition extends BlockBase {
  repeat: { item?: string | undefined; nextItem?: string | undefined; until: ConditionDefinition; maxIterations: number };
  steps: NodeDefinition[];
}
export interface ParallelDefinition extends BlockBase {
  parallel: NodeDefinition[][];
}
export interface TryDefinition extends BlockBase {
  try: NodeDefinition[];
  catch?: { errors?: ErrorType[] | undefined; steps: NodeDefinition[] }[] | undefined;
  finally?: NodeDefinition[] | undefined;
}
export interface ReturnDefinition extends BlockBase {
  return: Record<string, string>;
}
export interface FailDefinition extends BlockBase {
  fail: string;
}
/** One element of a list of steps: a step of a kind, or a block of control flow. */
export type NodeDefinition =
  | StepDefinition
  | ChoiceDefinition
  | ForEachDefinition
  | RepeatDefinition
  | ParallelDefinition
  | TryDefinition
  | ReturnDefinition
  | FailDefinition;
export type ChoreoDefinition = z.output<typeof choreoDefinitionSchema>;
