import type { ChoreoDefinition } from './definition.ts';
import { ExpressionError } from './expression.ts';
import type { TemplateContext } from './template.ts';
import { compileValue } from './templated-value.ts';
import type { CompiledValue } from './templated-value.ts';

export interface CompiledStep {
  readonly index: number;
  readonly id: string;
  readonly kind: string;
  readonly args: CompiledValue;
  /** The definition's; when absent, the kind's default, else DEFAULT_STEP_TIMEOUT_MS. */
  readonly timeoutMs: number | undefined;
  readonly attempts: number;
  readonly backoffMs: number;
}

export interface CompiledDefinition {
  readonly steps: readonly CompiledStep[];
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
      steps: definition.steps.map((step, index) => ({
        index,
        id: step.id,
        kind: step.kind,
        args: compileValue(step.args),
        timeoutMs: step.timeoutMs,
        attempts: step.retry?.attempts ?? 1,
        backoffMs: step.retry?.backoffMs ?? 0,
      })),
      outputs: Object.entries(definition.outputs).map(([name, output]) => [name, compileValue(output.value)] as const),
    };
    cache.set(definition, compiled);
  }
  return compiled;
}

/**
 * The outputs that can be computed with what is available; the others are absent: a template
 * referencing something not available yet, an expression selecting nothing. Values that are not
 * strings are written as JSON text, as templates write them. Throws ExpressionError, naming the
 * output, when an expression fails.
 */
export async function evaluateOutputs(definition: ChoreoDefinition, context: TemplateContext): Promise<Record<string, string>> {
  const outputs: Record<string, string> = {};
  for (const [name, value] of compileDefinition(definition).outputs) {
    const text = await outputText(name, value, context);
    if (text !== undefined) outputs[name] = text;
  }
  return outputs;
}

async function outputText(name: string, compiled: CompiledValue, context: TemplateContext): Promise<string | undefined> {
  switch (compiled.type) {
    case 'template':
      return compiled.template.render(context);
    case 'expression': {
      let value: unknown;
      try {
        value = await compiled.expression.evaluate(context);
      } catch (error) {
        throw error instanceof ExpressionError ? new ExpressionError(`outputs.${name}: ${error.message}`) : error;
      }
      return value === undefined || typeof value === 'string' ? value : JSON.stringify(value);
    }
    case 'constant':
      return typeof compiled.value === 'string' ? compiled.value : JSON.stringify(compiled.value);
    case 'array':
    case 'object':
      // Output values are strings: never compiled to containers.
      return undefined;
  }
}
