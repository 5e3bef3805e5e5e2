import { z } from 'zod';

/**
 * The shapes of what requests send — path, query, headers and decoded bodies — in one place: the
 * routes validate with them, and the OpenAPI document is generated from them. Each refusal's
 * message is the one the service has always answered with.
 */

/** The first problem zod found, as the message of a 400. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? 'The request is not valid.';
}

/** The bounds of request bodies, which the decoders check with their own messages and the schemas state. */
export const MAX_NAME_LENGTH = 256;
/**
 * Each output filter is a query a worker runs on an output after the run and whose result is
 * stored with it: their number and length are bounded like the body's other parts.
 */
export const MAX_OUTPUT_FILTERS = 20;
export const MAX_FILTER_PATH_LENGTH = 1000;
/** A preset fills a Choreo's inputs: a few dozen at most in practice. */
export const MAX_PRESET_INPUTS = 200;

export const runQuerySchema = z.object({
  mode: z.enum(['async', 'sync'], { error: 'mode must be "async" or "sync".' }).optional().meta({
    description: 'Extension. `async` answers 202 at once; `sync` waits for the end as long as the service allows. Without it, `Prefer: respond-async` decides.',
  }),
  source_id: z
    .string()
    .regex(/^[\x20-\x7e]{0,256}$/, 'source_id must be printable ASCII, at most 256 characters.')
    .optional()
    .meta({ description: "Extension. The caller's own reference for the run, kept with it." }),
  store_results: z
    .string()
    .optional()
    .meta({ description: 'Extension. `true` or `1` keeps the outputs of a synchronous run for later reads (`?view=outputs`).' }),
  notify: z.string().max(2048, 'notify must be an https URL of at most 2048 characters.').optional().meta({
    description: "Extension. An `https` URL the run's end is delivered to as a webhook, signed with the account's notify secret (`PUT /webhooks/notify`).",
  }),
});

export const runHeadersSchema = z.object({
  prefer: z.string().optional().meta({ description: 'Extension. `respond-async` asks for 202 at once (RFC 7240); answered with `Preference-Applied`.' }),
  'idempotency-key': z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/, 'Idempotency-Key must be 1 to 255 visible ASCII characters, without spaces.')
    .optional()
    .meta({
      description: 'Extension. The same key with the same request answers with the first run (`Idempotent-Replayed: true`); with another request, 409.',
    }),
});

export const redriveHeadersSchema = runHeadersSchema.pick({ 'idempotency-key': true });

const runInputSchema = z
  .object({
    name: z.string().min(1).max(MAX_NAME_LENGTH),
    value: z.union([z.string(), z.number(), z.boolean()]).meta({ description: 'Numbers and booleans are taken as written.' }),
  })
  .meta({ xml: { name: 'input' } });

const outputFilterSchema = z
  .object({
    name: z.string().min(1).max(MAX_NAME_LENGTH),
    path: z.string().min(1).max(MAX_FILTER_PATH_LENGTH).meta({ description: 'An XPath or JSON path run on the output.' }),
    variable: z.string().min(1).max(MAX_NAME_LENGTH).meta({ description: 'The output the path is run on.' }),
  })
  .meta({ xml: { name: 'filter' } });

/**
 * A run's body, JSON or XML (`<inputs><input><name/><value/></input>…<outputFilters><filter>…
 * </filter></outputFilters><preset/></inputs>`); empty means no inputs.
 */
export const runRequestBodySchema = z
  .object({
    inputs: z.array(runInputSchema).optional(),
    outputFilters: z
      .array(outputFilterSchema)
      .max(MAX_OUTPUT_FILTERS)
      .optional()
      .meta({ description: 'Extension. Queries run on outputs after the run; each result is an output of its own.', xml: { wrapped: true } }),
    preset: z
      .string()
      .regex(/^\P{Cc}{1,256}$/u)
      .optional()
      // The generator appends a pattern's flag to it (`…$/u`): the pattern is given as JSON Schema reads it.
      .meta({ description: 'Extension. A stored input set of the account: its inputs fill those the body does not give.', pattern: '^\\P{Cc}{1,256}$' }),
  })
  .meta({ id: 'RunRequest', description: 'The inputs of a run, by name.', xml: { name: 'inputs' } });

const presetInputSchema = z
  .object({
    name: z.string().min(1).max(MAX_NAME_LENGTH),
    value: z.union([z.string(), z.number(), z.boolean()]),
    secret: z.boolean().optional().meta({ description: 'A secret value is never shown again.' }),
  })
  .meta({ xml: { name: 'input' } });

/** A preset's body, JSON or XML (`<inputs><input><name/><value/><secret/></input></inputs>`). */
export const presetRequestBodySchema = z
  .object({ inputs: z.array(presetInputSchema).min(1).max(MAX_PRESET_INPUTS) })
  .meta({ id: 'PresetRequest', description: 'The inputs a preset stores.', xml: { name: 'inputs' } });

export const choreoIdParamsSchema = z.object({
  id: z.string().meta({ description: 'The Choreo id without its leading slash, such as `Library/Utilities/Encoding/Base64Encode`; slashes stay as they are.' }),
});

export const executionIdParamsSchema = z.object({
  id: z.string().meta({ description: 'The execution id: 32 lowercase hexadecimal digits.' }),
});

export const executionQuerySchema = z.object({
  view: z
    .enum(['outputs', 'steps'], { error: 'view must be "outputs" or "steps" when given.' })
    .optional()
    .meta({ description: 'Extension. `outputs` adds the outputs of an ended run; `steps` the step history.' }),
});

export const presetNameParamsSchema = z.object({
  name: z.string().meta({ description: 'A preset name: 1 to 128 letters, digits and . _ @ -, starting with a letter or digit.' }),
});

export const presetQuerySchema = z.object({
  values: z
    .enum(['shown', 'masked'], { error: 'values must be "shown" or "masked".' })
    .optional()
    .meta({ description: 'Extension. `shown` shows the values of inputs not marked secret, to credentials that may write presets.' }),
});

export const callbackTokenParamsSchema = z.object({
  token: z.string().meta({ description: 'The token of the call back URL the run handed out.' }),
});

const STATUSES = ['RUNNING', 'SUCCESS', 'ERROR', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'] as const;
const epochMs = (name: string) =>
  z
    .string()
    .regex(/^\d{1,15}$/, `${name} must be a time in epoch milliseconds.`)
    .transform(Number)
    .optional();

/** The cursor of the run history: `<starttime>.<id>` of the last entry shown, base64url. */
export const historyCursorSchema = z
  .string()
  .transform((text, ctx) => {
    const decoded = Buffer.from(text, 'base64url').toString('utf8');
    const match = /^(\d{1,15})\.([\w-]{1,64})$/.exec(decoded);
    if (!match) {
      ctx.addIssue({ code: 'custom', message: 'cursor must be the one a previous answer gave.' });
      return z.NEVER;
    }
    return { starttime: Number(match[1]), id: match[2] as string };
  })
  .optional();

/** The query of the run history (`GET /choreo-executions` with any of these). */
export const historyQuerySchema = z.strictObject(
  {
    status: z
      .enum([...STATUSES, 'any'], { error: `status must be one of ${STATUSES.join(', ')} or any.` })
      .optional()
      .meta({ description: 'Extension. Lists retained runs in this status (`any`: all); without any parameter, the running runs.' }),
    choreo: z
      .string()
      .regex(/^\/[\w./-]{1,1000}$/, 'choreo must be a Choreo id.')
      .optional()
      .meta({ description: 'Extension. Runs of this Choreo.' }),
    since: epochMs('since').meta({ description: 'Extension. Runs started at or after this time (epoch ms).' }),
    until: epochMs('until').meta({ description: 'Extension. Runs started at or before this time (epoch ms).' }),
    limit: z
      .string()
      .regex(/^\d{1,3}$/, 'limit must be 1 to 500.')
      .transform(Number)
      .refine((n) => n >= 1 && n <= 500, 'limit must be 1 to 500.')
      .optional()
      .meta({ description: 'Extension. Entries at most (1–500, default 50).' }),
    cursor: historyCursorSchema.meta({ description: 'Extension. `next` of the previous answer: the page after it.' }),
  },
  { error: 'Unknown query parameter.' },
);

export function encodeHistoryCursor(cursor: { starttime: number; id: string }): string {
  return Buffer.from(`${cursor.starttime}.${cursor.id}`, 'utf8').toString('base64url');
}
