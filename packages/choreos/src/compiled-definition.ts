import type { ChoreoDefinition } from './definition.ts';
import { compileTemplate } from './template.ts';
import type { CompiledTemplate, TemplateContext } from './template.ts';
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
  readonly outputs: readonly (readonly [string, CompiledTemplate])[];
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
      outputs: Object.entries(definition.outputs).map(([name, output]) => [name, compileTemplate(output.value)] as const),
    };
    cache.set(definition, compiled);
  }
  return compiled;
}

/** The outputs whose templates can be rendered with what is available; the others are absent. */
export function renderOutputs(definition: ChoreoDefinition, context: TemplateContext): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const [name, template] of compileDefinition(definition).outputs) {
    const value = template.render(context);
    if (value !== undefined) outputs[name] = value;
  }
  return outputs;
}
