import { compileExpression, ExpressionError, isExpression } from './expression.ts';
import type { CompiledExpression } from './expression.ts';
import { compileTemplate, hasTemplate } from './template.ts';
import type { CompiledTemplate, TemplateContext, TemplateReference } from './template.ts';

/**
 * Step arguments are any JSON value; every string inside them is a template, or an expression when
 * it is exactly `{% … %}`. Compiled once per definition so that running a step only walks the
 * templated parts.
 */
export type CompiledValue =
  | { readonly type: 'constant'; readonly value: unknown }
  | { readonly type: 'template'; readonly template: CompiledTemplate }
  | { readonly type: 'expression'; readonly expression: CompiledExpression }
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

/** Compiled values with an expression somewhere inside: only those need evaluating asynchronously. */
const withExpressions = new WeakSet<CompiledValue>();

/** Throws TemplateSyntaxError for a malformed template, ExpressionSyntaxError for a malformed expression. */
export function compileValue(value: unknown): CompiledValue {
  if (typeof value === 'string') {
    if (isExpression(value)) return marked({ type: 'expression', expression: compileExpression(value) }, true);
    return hasTemplate(value) ? { type: 'template', template: compileTemplate(value) } : { type: 'constant', value };
  }
  if (Array.isArray(value)) {
    const items = value.map(compileValue);
    if (items.every((item) => item.type === 'constant')) return { type: 'constant', value };
    return marked({ type: 'array', items }, items.some(hasExpression));
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => [key, compileValue(item)] as const);
    if (entries.every(([, item]) => item.type === 'constant')) return { type: 'constant', value };
    return marked(
      { type: 'object', entries },
      entries.some(([, item]) => hasExpression(item)),
    );
  }
  return { type: 'constant', value };
}

export function hasExpression(compiled: CompiledValue): boolean {
  return withExpressions.has(compiled);
}

function marked(compiled: CompiledValue, expressions: boolean): CompiledValue {
  if (expressions) withExpressions.add(compiled);
  return compiled;
}

/** The value of a compiled value without expressions, rendered on the spot. */
function renderTemplated(compiled: CompiledValue, context: TemplateContext): unknown {
  switch (compiled.type) {
    case 'constant':
      return compiled.value;
    case 'template': {
      const text = compiled.template.render(context);
      if (text === undefined) throw new MissingTemplateValueError(compiled.template);
      return text;
    }
    case 'expression':
      throw new Error('an expression must be evaluated asynchronously');
    case 'array':
      return compiled.items.map((item) => renderTemplated(item, context));
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [key, item] of compiled.entries) defineEntry(result, key, renderTemplated(item, context));
      return result;
    }
  }
}

/**
 * The value with its templates rendered and its expressions evaluated. Throws
 * MissingTemplateValueError when a template references something not available, ExpressionError
 * when an expression fails or selects nothing (an argument must have a value).
 */
export async function evaluateValue(compiled: CompiledValue, context: TemplateContext): Promise<unknown> {
  if (!hasExpression(compiled)) return renderTemplated(compiled, context);
  switch (compiled.type) {
    case 'constant':
    case 'template':
      return renderTemplated(compiled, context);
    case 'expression': {
      const value = await compiled.expression.evaluate(context);
      if (value === undefined) {
        throw new ExpressionError(`expression {% ${compiled.expression.source} %} selects nothing: an argument needs a value (give a default with ?:)`);
      }
      return value;
    }
    case 'array': {
      const items: unknown[] = [];
      for (const item of compiled.items) items.push(await evaluateValue(item, context));
      return items;
    }
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [key, item] of compiled.entries) defineEntry(result, key, await evaluateValue(item, context));
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
    case 'expression':
      return [];
    case 'template':
      return [{ path, template: compiled.template }];
    case 'array':
      return compiled.items.flatMap((item, index) => templateLocations(item, [...path, index]));
    case 'object':
      return compiled.entries.flatMap(([key, item]) => templateLocations(item, [...path, key]));
  }
}

export interface ExpressionLocation {
  readonly path: readonly (string | number)[];
  readonly expression: CompiledExpression;
}

/** Where the expressions sit inside a compiled value. */
export function expressionLocations(compiled: CompiledValue, path: (string | number)[] = []): ExpressionLocation[] {
  switch (compiled.type) {
    case 'constant':
    case 'template':
      return [];
    case 'expression':
      return [{ path, expression: compiled.expression }];
    case 'array':
      return compiled.items.flatMap((item, index) => expressionLocations(item, [...path, index]));
    case 'object':
      return compiled.entries.flatMap(([key, item]) => expressionLocations(item, [...path, key]));
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
