import { compileCondition } from './condition.ts';
import type { CompiledCondition } from './condition.ts';
import type { ChoreoDefinition, ErrorType, NodeDefinition } from './definition.ts';
import { ExpressionError } from './expression.ts';
import type { CompiledExpression } from './expression.ts';
import type { TemplateContext } from './template.ts';
import { compileValue } from './templated-value.ts';
import type { CompiledValue } from './templated-value.ts';

export interface CompiledStep {
  readonly type: 'step';
  /** Position in its list of steps (the top level, or a block's). */
  readonly index: number;
  readonly id: string;
  readonly kind: string;
  readonly args: CompiledValue;
  /** The definition's; when absent, the kind's default, else DEFAULT_STEP_TIMEOUT_MS. */
  readonly timeoutMs: number | undefined;
  readonly attempts: number;
  readonly backoffMs: number;
}

export interface CompiledChoice {
  readonly type: 'choice';
  readonly id: string;
  readonly branches: readonly { readonly when: CompiledCondition; readonly steps: readonly CompiledNode[] }[];
  readonly otherwise: readonly CompiledNode[];
}

export interface CompiledForEach {
  readonly type: 'forEach';
  readonly id: string;
  readonly items: CompiledValue;
  readonly concurrency: CompiledValue;
  readonly steps: readonly CompiledNode[];
}

export interface CompiledRepeat {
  readonly type: 'repeat';
  readonly id: string;
  readonly item: CompiledValue | undefined;
  readonly nextItem: CompiledValue | undefined;
  readonly until: CompiledCondition;
  readonly maxIterations: number;
  readonly steps: readonly CompiledNode[];
}

export interface CompiledParallel {
  readonly type: 'parallel';
  readonly id: string;
  readonly branches: readonly (readonly CompiledNode[])[];
}

export interface CompiledTry {
  readonly type: 'try';
  readonly id: string;
  readonly steps: readonly CompiledNode[];
  /** `errors` undefined: any failure. */
  readonly handlers: readonly { readonly errors: ReadonlySet<ErrorType> | undefined; readonly steps: readonly CompiledNode[] }[];
  readonly finally: readonly CompiledNode[] | undefined;
}

export interface CompiledReturn {
  readonly type: 'return';
  readonly id: string;
  readonly outputs: readonly (readonly [string, CompiledValue])[];
}

export interface CompiledFail {
  readonly type: 'fail';
  readonly id: string;
  readonly message: CompiledValue;
}

/** A step of a kind, or a block of control flow. */
export type CompiledNode = CompiledStep | CompiledChoice | CompiledForEach | CompiledRepeat | CompiledParallel | CompiledTry | CompiledReturn | CompiledFail;

export interface CompiledDefinition {
  /** The top-level steps and blocks. */
  readonly steps: readonly CompiledNode[];
  /** Each output's value: a constant, a template or an expression. */
  readonly outputs: readonly (readonly [string, CompiledValue])[];
}

const cache = new WeakMap<ChoreoDefinition, CompiledDefinition>();

/**
 * Templates compiled once per definition object (cached by identity), so running a step costs a
 * render, not a parse. Expects a definition that parseDefinition accepted.
 */
export function compileDefinition(definition: ChoreoDefinition): CompiledDefinition {
  let compiled = cache.get(definition);
  if (compiled === undefined) {
    compiled = {
      steps: compileNodes(definition.steps),
      outputs: Object.entries(definition.outputs).map(([name, output]) => [name, compileValue(output.value)] as const),
    };
    cache.set(definition, compiled);
  }
  return compiled;
}

export function compileNodes(nodes: readonly NodeDefinition[]): CompiledNode[] {
  return nodes.map(compileNode);
}

export function compileNode(node: NodeDefinition, index: number): CompiledNode {
  if ('kind' in node) {
    return {
      type: 'step',
      index,
      id: node.id,
      kind: node.kind,
      args: compileValue(node.args),
      timeoutMs: node.timeoutMs,
      attempts: node.retry?.attempts ?? 1,
      backoffMs: node.retry?.backoffMs ?? 0,
    };
  }
  if ('choice' in node) {
    return {
      type: 'choice',
      id: node.id,
      branches: node.choice.map((branch) => ({ when: compileCondition(branch.when), steps: compileNodes(branch.steps) })),
      otherwise: compileNodes(node.default),
    };
  }
  if ('forEach' in node) {
    return { type: 'forEach', id: node.id, items: compileValue(node.forEach), concurrency: compileValue(node.concurrency), steps: compileNodes(node.steps) };
  }
  if ('repeat' in node) {
    return {
      type: 'repeat',
      id: node.id,
      item: node.repeat.item === undefined ? undefined : compileValue(node.repeat.item),
      nextItem: node.repeat.nextItem === undefined ? undefined : compileValue(node.repeat.nextItem),
      until: compileCondition(node.repeat.until),
      maxIterations: node.repeat.maxIterations,
      steps: compileNodes(node.steps),
    };
  }
  if ('parallel' in node) return { type: 'parallel', id: node.id, branches: node.parallel.map(compileNodes) };
  if ('try' in node) {
    return {
      type: 'try',
      id: node.id,
      steps: compileNodes(node.try),
      handlers: (node.catch ?? []).map((handler) => ({
        errors: handler.errors === undefined ? undefined : new Set(handler.errors),
        steps: compileNodes(handler.steps),
      })),
      finally: node.finally === undefined ? undefined : compileNodes(node.finally),
    };
  }
  if ('return' in node) {
    return { type: 'return', id: node.id, outputs: Object.entries(node.return).map(([name, value]) => [name, compileValue(value)] as const) };
  }
  return { type: 'fail', id: node.id, message: compileValue(node.fail) };
}

/**
 * The outputs that can be computed with what is available; the others are absent: a template
 * referencing something not available yet, an expression selecting nothing. Values that are not
 * strings are written as JSON text, as templates write them. Throws ExpressionError, naming the
 * output, when an expression fails.
 */
export async function evaluateOutputs(definition: ChoreoDefinition, context: TemplateContext): Promise<Record<string, string>> {
  return evaluateOutputValues(compileDefinition(definition).outputs, context);
}

/** Named output values (the document's, or a `return`'s) computed as evaluateOutputs does. */
export async function evaluateOutputValues(values: readonly (readonly [string, CompiledValue])[], context: TemplateContext): Promise<Record<string, string>> {
  const outputs: Record<string, string> = {};
  for (const [name, value] of values) {
    // Templates render on the spot: a run pays for waiting only where an expression is evaluated.
    const text = value.type === 'expression' ? await expressionText(name, value.expression, context) : templatedText(value, context);
    if (text !== undefined) outputs[name] = text;
  }
  return outputs;
}

async function expressionText(name: string, expression: CompiledExpression, context: TemplateContext): Promise<string | undefined> {
  let value: unknown;
  try {
    value = await expression.evaluate(context);
  } catch (error) {
    throw error instanceof ExpressionError ? new ExpressionError(`outputs.${name}: ${error.message}`) : error;
  }
  return value === undefined || typeof value === 'string' ? value : JSON.stringify(value);
}

function templatedText(compiled: CompiledValue, context: TemplateContext): string | undefined {
  switch (compiled.type) {
    case 'template':
      return compiled.template.render(context);
    case 'constant':
      return typeof compiled.value === 'string' ? compiled.value : JSON.stringify(compiled.value);
    default:
      // Output values are strings: never compiled to containers, and expressions are evaluated above.
      return undefined;
  }
}
