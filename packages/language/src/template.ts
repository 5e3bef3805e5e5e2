/**
 * The template language of Choreo definitions: literal text with `{{ reference }}` holes.
 *
 *   {{inputs.Text}}             a bound input ("" when an optional input was not given)
 *   {{steps.fetch.body}}        a path into the result of an earlier step
 *   {{steps.split.items.0}}     numeric segments index arrays
 *   {{run.completedSteps}}      steps completed so far, across resumes
 *   {{loop.item.id}}            inside a loop: the current item (a path into it), {{loop.index}}
 *   {{error.message}}           inside a catch: the failure caught (message, type, step)
 *   {{"{{"}}                    a JSON string literal, to write a literal "{{"
 *
 * Parsed by hand, never evaluated: a template can only read values, never run code.
 */

export type TemplateReference =
  | { readonly type: 'input'; readonly name: string; readonly text: string }
  | { readonly type: 'step'; readonly stepId: string; readonly path: readonly string[]; readonly text: string }
  | { readonly type: 'run'; readonly field: 'completedSteps'; readonly text: string }
  | { readonly type: 'loop'; readonly field: 'item' | 'index'; readonly path: readonly string[]; readonly text: string }
  | { readonly type: 'error'; readonly field: 'message' | 'type' | 'step'; readonly text: string };

type Part = string | TemplateReference;

export interface CompiledTemplate {
  readonly source: string;
  readonly references: readonly TemplateReference[];
  /** The rendered string, or undefined when a referenced value is not available (yet). */
  render(context: TemplateContext): string | undefined;
}

export interface TemplateContext {
  readonly inputs: Readonly<Record<string, string>>;
  readonly results: Readonly<Record<string, unknown>>;
  readonly completedSteps: number;
  /** Inside a loop's iteration: its item and its index (from 0). */
  readonly loop?: { readonly item: unknown; readonly index: number } | undefined;
  /** Inside a catch: the failure it caught. */
  readonly error?: CaughtError | undefined;
}

/** A failure a `catch` took: what failed (a step id, with its iteration), how, and why. */
export interface CaughtError {
  readonly type: string;
  readonly message: string;
  readonly step: string;
}

export class TemplateSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateSyntaxError';
  }
}

const SEGMENT = /^[^\s.{}]+$/;
const RUN_FIELDS = new Set(['completedSteps']);
const ERROR_FIELDS = new Set(['message', 'type', 'step']);

export function hasTemplate(text: string): boolean {
  return text.includes('{{');
}

export function compileTemplate(source: string): CompiledTemplate {
  const parts: Part[] = [];
  let position = 0;
  while (position < source.length) {
    const open = source.indexOf('{{', position);
    if (open === -1) {
      parts.push(source.slice(position));
      break;
    }
    if (open > position) parts.push(source.slice(position, open));
    const close = findClose(source, open + 2);
    if (close === -1) throw new TemplateSyntaxError(`unclosed "{{" at position ${open} in ${JSON.stringify(source)}`);
    parts.push(parseExpression(source.slice(open + 2, close).trim()));
    position = close + 2;
  }
  return build(source, mergeLiterals(parts));
}

function findClose(source: string, from: number): number {
  // A string literal may itself contain "}}", so skip over it.
  let index = from;
  while (index < source.length) {
    const char = source[index];
    if (char === '"') {
      index++;
      while (index < source.length && source[index] !== '"') index += source[index] === '\\' ? 2 : 1;
      index++;
      continue;
    }
    if (char === '}' && source[index + 1] === '}') return index;
    index++;
  }
  return -1;
}

function parseExpression(expression: string): Part {
  if (expression.startsWith('"')) {
    try {
      const value: unknown = JSON.parse(expression);
      if (typeof value === 'string') return value;
    } catch {
      // reported below
    }
    throw new TemplateSyntaxError(`{{${expression}}} is not a valid string literal`);
  }
  const segments = expression.split('.');
  if (expression === '' || !segments.every((segment) => SEGMENT.test(segment))) {
    throw new TemplateSyntaxError(`{{${expression}}} is not a valid reference`);
  }
  const [root, first, ...rest] = segments;
  if (root === 'inputs' && first !== undefined && rest.length === 0) {
    return { type: 'input', name: first, text: expression };
  }
  if (root === 'steps' && first !== undefined) {
    return { type: 'step', stepId: first, path: rest, text: expression };
  }
  if (root === 'run' && first !== undefined && rest.length === 0 && RUN_FIELDS.has(first)) {
    return { type: 'run', field: 'completedSteps', text: expression };
  }
  if (root === 'loop' && first === 'item') {
    return { type: 'loop', field: 'item', path: rest, text: expression };
  }
  if (root === 'loop' && first === 'index' && rest.length === 0) {
    return { type: 'loop', field: 'index', path: [], text: expression };
  }
  if (root === 'error' && first !== undefined && rest.length === 0 && ERROR_FIELDS.has(first)) {
    return { type: 'error', field: first as 'message' | 'type' | 'step', text: expression };
  }
  throw new TemplateSyntaxError(
    `{{${expression}}} is not a valid reference: use inputs.<Name>, steps.<id>[.<path>], run.completedSteps, loop.item[.<path>], loop.index or error.message|type|step`,
  );
}

function mergeLiterals(parts: Part[]): Part[] {
  const merged: Part[] = [];
  for (const part of parts) {
    const last = merged[merged.length - 1];
    if (typeof part === 'string' && typeof last === 'string') merged[merged.length - 1] = last + part;
    else merged.push(part);
  }
  return merged;
}

function build(source: string, parts: Part[]): CompiledTemplate {
  const references = parts.filter((part): part is TemplateReference => typeof part !== 'string');
  if (references.length === 0) {
    const constant = parts.join('');
    return { source, references, render: () => constant };
  }
  const only = parts.length === 1 ? references[0] : undefined;
  if (only !== undefined) {
    return { source, references, render: (context) => resolveText(only, context) };
  }
  return {
    source,
    references,
    render(context) {
      let text = '';
      for (const part of parts) {
        if (typeof part === 'string') {
          text += part;
          continue;
        }
        const value = resolveText(part, context);
        if (value === undefined) return undefined;
        text += value;
      }
      return text;
    },
  };
}

function resolveText(reference: TemplateReference, context: TemplateContext): string | undefined {
  const value = resolveReference(reference, context);
  if (value === undefined) return undefined;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The raw value a reference points at, or undefined when it is not available. */
export function resolveReference(reference: TemplateReference, context: TemplateContext): unknown {
  switch (reference.type) {
    case 'input':
      return Object.hasOwn(context.inputs, reference.name) ? context.inputs[reference.name] : '';
    case 'run':
      return context.completedSteps;
    case 'step':
      if (!Object.hasOwn(context.results, reference.stepId)) return undefined;
      return follow(context.results[reference.stepId], reference.path);
    case 'loop':
      if (context.loop === undefined) return undefined;
      return reference.field === 'index' ? context.loop.index : follow(context.loop.item, reference.path);
    case 'error':
      return context.error?.[reference.field];
  }
}

function follow(start: unknown, path: readonly string[]): unknown {
  let value = start;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    // Own properties only: a path must never reach prototypes ("constructor", "__proto__").
    if (!Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
