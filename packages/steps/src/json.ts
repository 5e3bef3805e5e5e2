import { z } from 'zod';
import { MAX_JSON_DEPTH, parseJsonText } from '@ces/formats';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { booleanArg, integerArg, text } from './arg-types.ts';

/** `json.format`: writing runs in `sandbox`, where it can be stopped. */
export function createJsonFormatStep(sandbox: Sandbox): StepKind {
  return defineStepKind({
    kind: 'json.format',
    pure: true,
    description:
      'Parses the JSON text `json` (failing with what is wrong when it is not valid) and writes it again, indented by `indent` spaces (0 = compact). Result: `{ json }`.',
    argsSchema: z.strictObject({ json: text, indent: integerArg(0, 8).default(2) }),
    example: { json: '{{inputs.JSON}}', indent: 2 },
    // In the sandbox: indentation grows with the square of the depth, megabytes from a few kilobytes.
    run: async (args, context) => ({ json: await sandbox.formatJson({ json: args.json, indent: args.indent }, context.signal) }),
  });
}

/** `json.query`: the query runs in `sandbox`, where it can be stopped. */
export function createJsonQueryStep(sandbox: Sandbox): StepKind {
  return defineStepKind({
    kind: 'json.query',
    pure: true,
    description:
      'Selects from the JSON text `json` with the JSONPath `path` (script expressions disabled). Result: `{ result, count }`: a single scalar match is its text, anything else JSON text.',
    argsSchema: z.strictObject({ json: text, path: z.string().max(10_000) }),
    example: { json: '{{inputs.JSON}}', path: '$.store.book[0].title' },
    run: async (args, context) => sandbox.queryJson({ json: args.json, path: args.path }, context.signal),
  });
}

export const jsonSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'json.build',
    pure: true,
    description:
      'Builds a JSON object from `fields` (name → value; templated strings stay strings) and then `entries` (a list of `{ name, value, json }`, for names that are themselves templated). Fields named in `jsonFields`, and entries with `json` "true", are parsed as JSON first, to embed numbers, arrays or objects. Result: `{ json }`.',
    argsSchema: z.strictObject({
      fields: z.record(z.string(), z.unknown()).default({}),
      jsonFields: z.array(z.string()).default([]),
      entries: z.array(z.strictObject({ name: z.string().min(1), value: z.unknown(), json: booleanArg.default(false) })).default([]),
      pretty: booleanArg.default(false),
    }),
    example: { fields: { name: '{{inputs.Name}}', tags: '{{inputs.Tags}}' }, jsonFields: ['tags'] },
    run: async (args) => {
      const object: Record<string, unknown> = { ...args.fields };
      for (const name of args.jsonFields) {
        if (!Object.hasOwn(object, name)) throw new InvalidStepInputError(`jsonFields names "${name}", which is not a field`);
        setField(object, name, parseField(name, object[name]));
      }
      for (const entry of args.entries) setField(object, entry.name, entry.json ? parseField(entry.name, entry.value) : entry.value);
      return { json: JSON.stringify(object, null, args.pretty ? 2 : undefined) };
    },
  }),
];

function parseField(name: string, value: unknown): unknown {
  return typeof value === 'string' ? parseJsonText(value, `JSON of field "${name}"`, { maxDepth: MAX_JSON_DEPTH }) : value;
}

/** defineProperty, not assignment: a field may be called "__proto__". */
function setField(object: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}
