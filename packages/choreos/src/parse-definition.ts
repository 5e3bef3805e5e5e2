import { choreoDefinitionSchema } from './definition.ts';
import type { ChoreoDefinition } from './definition.ts';
import type { StepLibrary } from './step-kind.ts';
import { ExpressionSyntaxError } from './expression.ts';
import { TemplateSyntaxError } from './template.ts';
import type { TemplateReference } from './template.ts';
import { compileValue, expressionLocations, templateLocations } from './templated-value.ts';
import type { CompiledValue } from './templated-value.ts';

export type ParseDefinitionResult = { ok: true; definition: ChoreoDefinition } | { ok: false; problems: string[] };

/** Validates a parsed JSON document as a Choreo definition, with human-readable problems. */
export function parseDefinition(raw: unknown, steps: StepLibrary): ParseDefinitionResult {
  const parsed = choreoDefinitionSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: parsed.error.issues.map((issue) => formatIssue(issue.path, issue.message)) };
  const definition = parsed.data;
  const problems: string[] = [];

  for (const [name, input] of Object.entries(definition.inputs)) {
    if (input.required && input.default !== undefined) problems.push(`inputs.${name}: an input is either required or has a default, not both`);
  }

  const stepIndex = new Map<string, number>();
  definition.steps.forEach((step, index) => {
    if (stepIndex.has(step.id)) problems.push(`steps[${index}]: step id "${step.id}" is already used by steps[${stepIndex.get(step.id)}]`);
    else stepIndex.set(step.id, index);
  });

  const checkReference = (where: string, reference: TemplateReference, beforeStep: number | undefined) => {
    if (reference.type === 'input' && !Object.hasOwn(definition.inputs, reference.name)) {
      problems.push(`${where}: {{${reference.text}}} refers to an input that is not declared`);
    }
    if (reference.type !== 'step') return;
    const target = stepIndex.get(reference.stepId);
    if (target === undefined) problems.push(`${where}: {{${reference.text}}} refers to an unknown step "${reference.stepId}"`);
    else if (beforeStep !== undefined && target >= beforeStep) {
      problems.push(
        `${where}: {{${reference.text}}} refers to ${target === beforeStep ? 'the step itself' : `step "${reference.stepId}", which runs later`}; only earlier steps' results are available`,
      );
    }
  };

  definition.steps.forEach((step, index) => {
    const where = `steps[${index}] (${step.id})`;
    let compiled: CompiledValue;
    try {
      compiled = compileValue(step.args);
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError || error instanceof ExpressionSyntaxError)) throw error;
      problems.push(`${where} args: ${error.message}`);
      return;
    }
    for (const location of templateLocations(compiled)) {
      for (const reference of location.template.references) checkReference(`${where} ${formatPath(['args', ...location.path])}`, reference, index);
    }
    const kind = steps.get(step.kind);
    if (kind === undefined) {
      problems.push(`${where}: unknown step kind "${step.kind}"`);
      return;
    }
    // Templated and computed values are only known at run time; judge everything else now.
    const templated = [...templateLocations(compiled).map((location) => location.path), ...expressionLocations(compiled)];
    const result = kind.argsSchema.safeParse(step.args);
    if (!result.success) {
      for (const issue of result.error.issues) {
        if (templated.some((path) => startsWith(issue.path, path))) continue;
        problems.push(`${where} ${formatIssue(['args', ...issue.path], issue.message)}`);
      }
    }
  });

  for (const [name, output] of Object.entries(definition.outputs)) {
    try {
      for (const location of templateLocations(compileValue(output.value))) {
        for (const reference of location.template.references) checkReference(`outputs.${name}.value`, reference, undefined);
      }
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError || error instanceof ExpressionSyntaxError)) throw error;
      problems.push(`outputs.${name}.value: ${error.message}`);
    }
  }

  return problems.length === 0 ? { ok: true, definition } : { ok: false, problems };
}

function startsWith(path: readonly PropertyKey[], prefix: readonly (string | number)[]): boolean {
  return prefix.length <= path.length && prefix.every((segment, index) => String(path[index]) === String(segment));
}

function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

function formatIssue(path: readonly PropertyKey[], message: string): string {
  return path.length === 0 ? message : `${formatPath(path)}: ${message}`;
}
