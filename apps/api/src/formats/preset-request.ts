import type { PresetInput } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';
import { bodyFormat } from './negotiate.ts';
import { parseInputsDocument } from './inputs-document.ts';
import { firstIssue, MAX_NAME_LENGTH, MAX_PRESET_INPUTS, presetRequestBodySchema } from './request-schemas.ts';
import { xmlChildren, xmlText, type XmlNode } from './xml.ts';

/**
 * Decodes the body of `PUT /presets/<name>`: the run body's `inputs` shape, each input with an
 * optional `secret` flag (JSON `"secret": true`, XML `<secret>true</secret>`) for values that are
 * never shown again. JSON `{"inputs": [{"name", "value", "secret"?}]}` or XML
 * `<inputs><input><name/><value/><secret/></input></inputs>`, as Content-Type says.
 */
export function parsePresetRequest(body: string, contentType: string | undefined): PresetInput[] {
  if (body.trim() === '') throw new ApiError('BAD_REQUEST', 'A preset needs a body: {"inputs": [{"name": "…", "value": "…"}]}.');
  const format = bodyFormat(contentType);
  if (format === undefined) throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  const inputs = format === 'json' ? fromJson(body) : fromXml(body);
  if (inputs.length === 0) throw new ApiError('BAD_REQUEST', 'A preset needs at least one input.');
  if (inputs.length > MAX_PRESET_INPUTS) throw new ApiError('BAD_REQUEST', `A preset holds at most ${MAX_PRESET_INPUTS} inputs, not ${inputs.length}.`);
  const names = new Set<string>();
  for (const input of inputs) {
    if (input.name.length === 0 || input.name.length > MAX_NAME_LENGTH) {
      throw new ApiError('BAD_REQUEST', `Each input needs a name of 1 to ${MAX_NAME_LENGTH} characters.`);
    }
    if (names.has(input.name)) throw new ApiError('BAD_REQUEST', `Input "${input.name}" is given more than once.`);
    names.add(input.name);
  }
  // The checks above say precisely what is wrong; the schema, which the OpenAPI document shows,
  // must agree with them, and refuses whatever they would let through that it does not allow.
  const shape = presetRequestBodySchema.safeParse({ inputs });
  if (!shape.success) throw new ApiError('BAD_REQUEST', firstIssue(shape.error));
  return inputs;
}

function fromJson(body: string): PresetInput[] {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    // Not the parser's message: it quotes the text around the fault, which may be a secret value.
    throw new ApiError('BAD_REQUEST', 'The body is not valid JSON.');
  }
  const given = (json as { inputs?: unknown } | null)?.inputs;
  if (json === null || typeof json !== 'object' || Array.isArray(json) || !Array.isArray(given)) {
    throw new ApiError('BAD_REQUEST', 'The body must be a JSON object such as {"inputs": [{"name": "…", "value": "…", "secret": true}]}.');
  }
  return given.map((input: unknown, index) => {
    if (input === null || typeof input !== 'object' || Array.isArray(input)) {
      throw new ApiError('BAD_REQUEST', `inputs[${index}] must be an object {name, value, secret}.`);
    }
    const { name, value, secret = false } = input as { name?: unknown; value?: unknown; secret?: unknown };
    if (typeof name !== 'string') throw new ApiError('BAD_REQUEST', `inputs[${index}].name must be a string.`);
    if (typeof secret !== 'boolean') throw new ApiError('BAD_REQUEST', `inputs[${index}].secret must be true or false.`);
    if (typeof value === 'string') return { name, value, secret };
    if (typeof value === 'number' || typeof value === 'boolean') return { name, value: String(value), secret };
    throw new ApiError('BAD_REQUEST', `The value of input "${name}" must be a string, number or boolean.`);
  });
}

function fromXml(body: string): PresetInput[] {
  const root = parseInputsDocument(body);
  const text = (node: XmlNode, child: string, what: string, optional = false) => {
    const children = xmlChildren(node, child);
    if (optional && children.length === 0) return undefined;
    const first = children[0];
    if (children.length !== 1 || first === undefined) throw new ApiError('BAD_REQUEST', `${what} needs exactly one <${child}>.`);
    const value = xmlText(first);
    if (value === undefined) throw new ApiError('BAD_REQUEST', `<${child}> of ${what} must hold text only.`);
    return value;
  };
  return xmlChildren(root, 'input').map((input, index) => {
    const what = `<input> ${index + 1}`;
    const secret = text(input, 'secret', what, true)?.trim() ?? 'false';
    if (secret !== 'true' && secret !== 'false') throw new ApiError('BAD_REQUEST', `<secret> of ${what} must be true or false.`);
    return { name: text(input, 'name', what) ?? '', value: text(input, 'value', what) ?? '', secret: secret === 'true' };
  });
}
