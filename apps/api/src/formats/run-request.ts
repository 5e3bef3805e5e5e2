import type { OutputFilter } from '@ces/language';
import { ApiError } from '../errors/api-error.ts';
import { bodyFormat } from './negotiate.ts';
import { parseInputsDocument } from './inputs-document.ts';
import { firstIssue, MAX_FILTER_PATH_LENGTH, MAX_NAME_LENGTH, MAX_OUTPUT_FILTERS, runRequestBodySchema } from './request-schemas.ts';
import { xmlChildren, xmlText, type XmlNode } from './xml.ts';

/** A run request's body, decoded: inputs by name, optional output filters and the preset it names. */
export interface RunRequest {
  inputs: Record<string, string>;
  outputFilters: OutputFilter[];
  /** The stored input set (`preset`) the run names, as the original's SDKs send it. */
  preset?: string;
}

/**
 * Decodes the optional body of a run, as text (`bodyText`, which has dropped a leading byte order
 * mark). Empty means no inputs whatever the Content-Type; otherwise the body must be JSON or XML as
 * Content-Type says. Values are strings; JSON numbers are taken as written, booleans as `true` or
 * `false`; a name given twice is refused.
 */
export function parseRunRequest(body: string, contentType: string | undefined): RunRequest {
  if (body.trim() === '') return { inputs: {}, outputFilters: [] };
  const format = bodyFormat(contentType);
  if (format === undefined) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  const pairs = format === 'json' ? fromJson(body) : fromXml(body);
  const inputs: Record<string, string> = Object.create(null);
  for (const { name, value } of pairs.inputs) {
    if (Object.hasOwn(inputs, name)) throw new ApiError('BAD_REQUEST', `Input "${name}" is given more than once.`);
    inputs[name] = value;
  }
  if (pairs.outputFilters.length > MAX_OUTPUT_FILTERS) {
    throw new ApiError('BAD_REQUEST', `At most ${MAX_OUTPUT_FILTERS} output filters are accepted, not ${pairs.outputFilters.length}.`);
  }
  const filterNames = new Set<string>();
  for (const filter of pairs.outputFilters) {
    if (filterNames.has(filter.name)) throw new ApiError('BAD_REQUEST', `Output filter "${filter.name}" is given more than once.`);
    if (filter.path.length === 0 || filter.path.length > MAX_FILTER_PATH_LENGTH) {
      throw new ApiError('BAD_REQUEST', `Output filter "${filter.name}" needs a path of 1 to ${MAX_FILTER_PATH_LENGTH} characters.`);
    }
    checkName(filter.variable, `The variable of output filter "${filter.name}"`);
    filterNames.add(filter.name);
  }
  const request: RunRequest = { inputs: { ...inputs }, outputFilters: pairs.outputFilters };
  if (pairs.preset !== undefined) request.preset = checkPreset(pairs.preset);
  // The checks above say precisely what is wrong; the schema, which the OpenAPI document shows,
  // must agree with them, and refuses whatever they would let through that it does not allow.
  const shape = runRequestBodySchema.safeParse({
    inputs: pairs.inputs,
    outputFilters: pairs.outputFilters,
    ...(request.preset !== undefined ? { preset: request.preset } : {}),
  });
  if (!shape.success) throw new ApiError('BAD_REQUEST', firstIssue(shape.error));
  return request;
}

interface Pairs {
  inputs: { name: string; value: string }[];
  outputFilters: OutputFilter[];
  preset?: unknown;
}

// A preset's name is echoed in the answer that it does not exist: printable, and bounded.
const PRESET_NAME = /^[^\p{Cc}]{1,256}$/u;

function checkPreset(preset: unknown): string {
  if (typeof preset !== 'string' || !PRESET_NAME.test(preset)) {
    throw new ApiError('BAD_REQUEST', 'preset must be the name of a preset: 1 to 256 characters, no control characters.');
  }
  return preset;
}

function checkName(name: string, what: string): string {
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
    throw new ApiError('BAD_REQUEST', `${what} needs a name of 1 to ${MAX_NAME_LENGTH} characters.`);
  }
  return name;
}

function fromJson(body: string): Pairs {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    throw new ApiError('BAD_REQUEST', `The body is not valid JSON: ${(error as Error).message}`);
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new ApiError('BAD_REQUEST', 'The body must be a JSON object such as {"inputs": [{"name": "…", "value": "…"}]}.');
  }
  const { inputs: given = [], outputFilters = [], preset } = json as { inputs?: unknown; outputFilters?: unknown; preset?: unknown };
  if (!Array.isArray(given)) throw new ApiError('BAD_REQUEST', '"inputs" must be a list of {name, value}.');
  const valueField = (input: unknown) => (input as { value?: unknown } | null)?.value;
  // A number's value is lost once parsed (12.50, 12345678901234567890, 1e400): parsed again, each
  // number keeps the text it was written with. Only then, as values are mostly strings; and only
  // values are taken from it, so that a number is still refused where a string must be.
  const written = given.some((input) => typeof valueField(input) === 'number')
    ? (JSON.parse(body, keepNumberText as (key: string, value: unknown) => unknown) as { inputs: unknown[] }).inputs
    : undefined;
  if (!Array.isArray(outputFilters)) throw new ApiError('BAD_REQUEST', '"outputFilters" must be a list of {name, path, variable}.');
  return {
    ...(preset === undefined ? {} : { preset }),
    inputs: given.map((input, index) => {
      if (input === null || typeof input !== 'object' || Array.isArray(input)) {
        throw new ApiError('BAD_REQUEST', `inputs[${index}] must be an object {name, value}.`);
      }
      const { name, value } = input as { name?: unknown; value?: unknown };
      if (typeof name !== 'string') throw new ApiError('BAD_REQUEST', `inputs[${index}].name must be a string.`);
      const exact = typeof value === 'number' && written ? valueField(written[index]) : value;
      return { name: checkName(name, `inputs[${index}]`), value: scalarToString(exact, `input "${name}"`) };
    }),
    outputFilters: outputFilters.map((filter, index) => {
      if (filter === null || typeof filter !== 'object' || Array.isArray(filter)) {
        throw new ApiError('BAD_REQUEST', `outputFilters[${index}] must be an object {name, path, variable}.`);
      }
      const { name, path, variable } = filter as Record<string, unknown>;
      if (typeof name !== 'string' || typeof path !== 'string' || typeof variable !== 'string') {
        throw new ApiError('BAD_REQUEST', `outputFilters[${index}] needs string name, path and variable.`);
      }
      return { name: checkName(name, `outputFilters[${index}]`), path, variable };
    }),
  };
}

function keepNumberText(_key: string, value: unknown, context: { source?: string }): unknown {
  return typeof value === 'number' && context.source !== undefined ? context.source : value;
}

function scalarToString(value: unknown, what: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === undefined) throw new ApiError('BAD_REQUEST', `The value of ${what} is missing.`);
  throw new ApiError('BAD_REQUEST', `The value of ${what} must be a string, number or boolean.`);
}

function fromXml(body: string): Pairs {
  const root = parseInputsDocument(body);
  const text = (node: XmlNode, child: string, what: string) => {
    const children = xmlChildren(node, child);
    if (children.length !== 1) throw new ApiError('BAD_REQUEST', `${what} needs exactly one <${child}>.`);
    const value = xmlText(children[0]);
    if (value === undefined) throw new ApiError('BAD_REQUEST', `<${child}> of ${what} must hold text only.`);
    return value;
  };
  const presets = xmlChildren(root, 'preset');
  if (presets.length > 1) throw new ApiError('BAD_REQUEST', 'The XML body names more than one <preset>.');
  return {
    ...(presets.length === 1 ? { preset: xmlText(presets[0]) ?? null } : {}),
    inputs: xmlChildren(root, 'input').map((input, index) => ({
      name: checkName(text(input, 'name', `<input> ${index + 1}`), `<input> ${index + 1}`),
      value: text(input, 'value', `<input> ${index + 1}`),
    })),
    outputFilters: xmlChildren(root, 'outputFilters').flatMap((filters) =>
      xmlChildren(filters, 'filter').map((filter, index) => ({
        name: checkName(text(filter, 'name', `<filter> ${index + 1}`), `<filter> ${index + 1}`),
        path: text(filter, 'path', `<filter> ${index + 1}`),
        variable: text(filter, 'variable', `<filter> ${index + 1}`),
      })),
    ),
  };
}
