import { compileTemplate, hasTemplate } from './template.ts';
import type { CompiledTemplate, TemplateContext, TemplateReference } from './template.ts';

/**
 * Step arguments are any JSON value; every string inside them is a template. Compiled once per
 * definition so that running a step only walks the templated parts.
 */
export type CompiledValue =
  | { readonly type: 'constant'; readonly value: unknown }
  | { readonly type: 'template'; readonly template: CompiledTemplate }
  | { readonly type: 'array'; readonly items: readonly CompiledValue[] }
  | { readonly type: 'object'; readonly entries: readonly (readonly [string, CompiledValue])[] };

export class MissingTemplateValueError extends Error {
  readonly reference: string;

  constructor(template: CompiledTemplate) {
    const missing = template.references.map((reference) => reference.text).join(', ');
    super(`template ${JSON.stringify(template.source)} references a value that is not available (${missing})`);
    this.name = 'MissingTemplateValueError';
    this.reference = missing;
  }
}

/** Throws TemplateSyntaxError (with the JSON path prefixed) for a malformed template. */
export function compileValue(value: unknown): CompiledValue {
  if (typeof value === 'string') {
    return hasTemplate(value) ? { type: 'template', template: compileTemplate(value) } : { type: 'constant', value };
  }
  if (Array.isArray(value)) {
    const items = value.map(compileValue);
    return items.every((item) => item.type === 'constant') ? { type: 'constant', value } : { type: 'array', items };
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => [key, compileValue(item)] as const);
    return entries.every(([, item]) => item.type === 'constant') ? { type: 'constant', value } : { type: 'object', entries };
  }
  return { type: 'constant', value };
}

export function renderValue(compiled: CompiledValue, context: TemplateContext): unknown {
  switch (compiled.type) {
    case 'constant':
      return compiled.value;
    case 'template': {
      const text = compiled.template.render(context);
      if (text === undefined) throw new MissingTemplateValueError(compiled.template);
      return text;
    }
    case 'array':
      return compiled.items.map((item) => renderValue(item, context));
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [key, item] of compiled.entries) defineEntry(result, key, renderValue(item, context));
      return result;
    }
  }
}

export interface TemplatedLocation {
  readonly path: readonly (string | number)[];
  readonly template: CompiledTemplate;
}

/** Where the templates sit inside a compiled value, for validation messages. */
export function templateLocations(compiled: CompiledValue, path: (string | number)[] = []): TemplatedLocation[] {
  switch (compiled.type) {
    case 'constant':
      return [];
    case 'template':
      return [{ path, template: compiled.template }];
    case 'array':
      return compiled.items.flatMap((item, index) => templateLocations(item, [...path, index]));
    case 'object':
      return compiled.entries.flatMap(([key, item]) => templateLocations(item, [...path, key]));
  }
}

export function referencesOf(compiled: CompiledValue): TemplateReference[] {
  return templateLocations(compiled).flatMap((location) => [...location.template.references]);
}

/** Plain assignment of "__proto__" would replace the prototype instead of adding a key. */
function defineEntry(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
