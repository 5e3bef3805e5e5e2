import { choreoDefinitionSchema, inputDefinitionSchema, nodeSchema, outputDefinitionSchema, VARIABLE_TYPE } from './definition.ts';
import type { ChoreoDefinition, ConditionDefinition, NodeDefinition, StepDefinition } from './definition.ts';
import { locateProblem, toPointer } from './document-problem.ts';
import type { DocumentProblem } from './document-problem.ts';
import type { StepLibrary } from './step-kind.ts';
import { ExpressionSyntaxError } from './expression.ts';
import type { CompiledExpression } from './expression.ts';
import { TemplateSyntaxError } from './template.ts';
import type { TemplateReference } from './template.ts';
import { compileValue, expressionLocations, templateLocations } from './templated-value.ts';
import { walkDefinition, type NodeScope } from './walk-definition.ts';
import type { CompiledValue } from './templated-value.ts';

export type ParseDefinitionResult =
  | { ok: true; definition: ChoreoDefinition }
  /** `problems` in words (`steps[0] (a) args.text: …`); `located`, the same ones in the same order, each at its JSON pointer. */
  | { ok: false; problems: string[]; located: DocumentProblem[] };

/**
 * Validates a parsed JSON document as a Choreo definition and reports every problem at once: the
 * schema's, then what the checks after it (step kinds, arguments, references) find in the parts of
 * the document the schema accepts, so that whoever fixes a document sees all of it in one answer.
 */
export function parseDefinition(raw: unknown, steps: StepLibrary): ParseDefinitionResult {
  const parsed = choreoDefinitionSchema.safeParse(raw);
  const located: DocumentProblem[] = [];
  const problems: string[] = [];
  let draft: Draft | undefined;
  if (parsed.success) {
    draft = { definition: parsed.data, inputsKnown: true, outputsKnown: true, stepsComplete: true, unjudged: new Set() };
  } else {
    for (const issue of parsed.error.issues) {
      problems.push(formatIssue(issue.path, issue.message));
      located.push({ pointer: toPointer(issue.path), message: issue.message });
    }
    draft = salvage(raw, new Set(parsed.error.issues.map((issue) => issue.path[0])));
  }
  if (draft !== undefined) {
    for (const problem of checkDefinition(draft, steps)) {
      problems.push(problem);
      located.push(locateProblem(problem));
    }
  }
  if (parsed.success && problems.length === 0) return { ok: true, definition: parsed.data };
  return { ok: false, problems, located };
}

/**
 * A definition to judge past its schema. For a document the schema refused, what it can still
 * judge without reporting what the schema did in other words, or what is only missing because a
 * part was refused: a name is declared when it is written, however wrongly; a refused step keeps
 * its place (so that paths stay right) without being judged, and then a reference to an unknown
 * step might be to one inside it.
 */
interface Draft {
  readonly definition: ChoreoDefinition;
  /** False when `inputs` is not an object: whether an input is declared cannot be told. */
  readonly inputsKnown: boolean;
  /** False when `outputs` is not an object. */
  readonly outputsKnown: boolean;
  /** False when the schema refused `steps` (none, too many, a step): the steps references name may be missing for that. */
  readonly stepsComplete: boolean;
  /** The refused steps' stand-ins: only their kind is judged. */
  readonly unjudged: ReadonlySet<NodeDefinition>;
}

/** `refused`: the top-level properties the schema reported problems in. */
function salvage(raw: unknown, refused: ReadonlySet<PropertyKey | undefined>): Draft | undefined {
  if (!isPlainObject(raw)) return undefined;
  const inputs = declaredParts(raw.inputs, inputDefinitionSchema, { description: '', type: VARIABLE_TYPE, required: false });
  const outputs = declaredParts(raw.outputs, outputDefinitionSchema, { description: '', type: VARIABLE_TYPE, value: '' });
  const unjudged = new Set<NodeDefinition>();
  const nodes = Array.isArray(raw.steps) ? raw.steps : [];
  const judged = nodes.map((node: unknown, index) => {
    const parsed = nodeSchema.safeParse(node);
    if (parsed.success) return parsed.data;
    const id = isPlainObject(node) && typeof node.id === 'string' ? node.id : `#${index}`;
    // A refused step's kind is still judged: it is a fact of its own, whatever else is wrong.
    const kind = isPlainObject(node) && typeof node.kind === 'string' ? node.kind : '';
    const standIn: StepDefinition = { id, kind, args: {} };
    unjudged.add(standIn);
    return standIn;
  });
  return {
    definition: {
      description: typeof raw.description === 'string' ? raw.description : '',
      timeLimitSeconds: undefined,
      inputs: inputs ?? {},
      outputs: outputs ?? {},
      steps: judged,
    },
    inputsKnown: inputs !== undefined,
    outputsKnown: outputs !== undefined,
    stepsComplete: !refused.has('steps'),
    unjudged,
  };
}

/** Each declaration the schema accepts, and a neutral stand-in for each it refuses; undefined when `value` is no object of them. */
function declaredParts<T>(value: unknown, schema: { safeParse(item: unknown): { success: boolean; data?: T } }, standIn: T): Record<string, T> | undefined {
  if (value === undefined) return {};
  if (!isPlainObject(value)) return undefined;
  const parts: Record<string, T> = {};
  for (const [name, item] of Object.entries(value)) {
    if (name === '__proto__') continue;
    const parsed = schema.safeParse(item);
    parts[name] = parsed.success ? (parsed.data as T) : standIn;
  }
  return parts;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The problems of a definition past its schema, in words. */
function checkDefinition(draft: Draft, steps: StepLibrary): string[] {
  const { definition } = draft;
  const problems: string[] = [];

  for (const [name, input] of Object.entries(definition.inputs)) {
    if (input.required && input.default !== undefined) problems.push(`inputs.${name}: an input is either required or has a default, not both`);
  }

  const declarations = declare(definition.steps, problems);

  const checkReference = (where: string, reference: TemplateReference, at: Position | undefined) => {
    switch (reference.type) {
      case 'input':
        if (draft.inputsKnown && !Object.hasOwn(definition.inputs, reference.name))
          problems.push(`${where}: {{${reference.text}}} refers to an input that is not declared`);
        return;
      case 'run':
        return;
      case 'loop':
        if (at?.loop === undefined) problems.push(`${where}: {{${reference.text}}} is only available inside the steps of a forEach or repeat`);
        return;
      case 'error':
        if (at?.inCatch !== true) problems.push(`${where}: {{${reference.text}}} is only available inside the steps of a catch`);
        return;
      case 'step':
        break;
    }
    const target = declarations.get(reference.stepId);
    if (target === undefined) {
      if (draft.stepsComplete) problems.push(`${where}: {{${reference.text}}} refers to an unknown step "${reference.stepId}"`);
      return;
    }
    if (at?.ancestors.includes(reference.stepId)) {
      problems.push(`${where}: {{${reference.text}}} refers to the block "${reference.stepId}" it is part of, whose result is only available after it`);
    } else if (at !== undefined && target.order >= at.order) {
      problems.push(
        `${where}: {{${reference.text}}} refers to ${target.order === at.order ? 'the step itself' : `step "${reference.stepId}", which runs later`}; only earlier steps' results are available`,
      );
    } else if (target.loop !== undefined && !(at?.ancestors.includes(target.loop) ?? false)) {
      problems.push(
        `${where}: {{${reference.text}}} refers to step "${reference.stepId}" inside loop "${target.loop}", whose results exist only in the loop's iterations; after the loop, {{steps.${target.loop}}} is the list of its iterations' results`,
      );
    }
  };

  /** The references an expression reads from the top (`inputs.X`, `steps.x`), judged as templates' are. */
  const checkExpressionReferences = (where: string, expression: CompiledExpression, at: Position | undefined) => {
    const quoted = `expression {% ${expression.source} %}`;
    for (const reference of expression.references) {
      if (reference.type === 'input') {
        if (draft.inputsKnown && !Object.hasOwn(definition.inputs, reference.name))
          problems.push(`${where}: ${quoted} reads inputs.${reference.name}, which is not declared`);
        continue;
      }
      const target = declarations.get(reference.stepId);
      if (target === undefined) {
        if (draft.stepsComplete) problems.push(`${where}: ${quoted} reads steps.${reference.stepId}, an unknown step`);
      } else if (at?.ancestors.includes(reference.stepId)) {
        problems.push(`${where}: ${quoted} reads the block "${reference.stepId}" it is part of, whose result is only available after it`);
      } else if (at !== undefined && target.order >= at.order) {
        problems.push(
          `${where}: ${quoted} reads ${target.order === at.order ? 'the step itself' : `step "${reference.stepId}", which runs later`}; only earlier steps' results are available`,
        );
      } else if (target.loop !== undefined && !(at?.ancestors.includes(target.loop) ?? false)) {
        problems.push(
          `${where}: ${quoted} reads step "${reference.stepId}" inside loop "${target.loop}", whose results exist only in the loop's iterations; after the loop, steps.${target.loop} is the list of its iterations' results`,
        );
      }
    }
  };

  /** Compiles a value and checks its templates' and expressions' references; undefined when it does not compile. */
  const checkValue = (where: string, value: unknown, at: Position | undefined): CompiledValue | undefined => {
    let compiled: CompiledValue;
    try {
      compiled = compileValue(value);
    } catch (error) {
      if (!(error instanceof TemplateSyntaxError || error instanceof ExpressionSyntaxError)) throw error;
      problems.push(`${where}: ${error.message}`);
      return undefined;
    }
    for (const location of templateLocations(compiled)) {
      const path = location.path.length === 0 ? where : `${where}${formatPath(location.path).startsWith('[') ? '' : '.'}${formatPath(location.path)}`;
      for (const reference of location.template.references) checkReference(path, reference, at);
    }
    for (const location of expressionLocations(compiled)) {
      const path = location.path.length === 0 ? where : `${where}${formatPath(location.path).startsWith('[') ? '' : '.'}${formatPath(location.path)}`;
      checkExpressionReferences(path, location.expression, at);
    }
    return compiled;
  };

  const checkCondition = (where: string, condition: ConditionDefinition, at: Position) => {
    if (typeof condition === 'string') {
      checkValue(where, condition, at);
    } else if ('all' in condition) {
      condition.all.forEach((part, index) => {
        checkCondition(`${where}.all[${index}]`, part, at);
      });
    } else if ('any' in condition) {
      condition.any.forEach((part, index) => {
        checkCondition(`${where}.any[${index}]`, part, at);
      });
    } else if ('not' in condition) {
      checkCondition(`${where}.not`, condition.not, at);
    } else {
      checkValue(`${where}.value`, condition.value, at);
    }
  };

  const checkStep = (where: string, step: StepDefinition, at: Position) => {
    const compiled = checkValue(`${where} args`, step.args, at);
    const kind = steps.get(step.kind);
    if (kind === undefined) {
      problems.push(`${where}: unknown step kind "${step.kind}"`);
      return;
    }
    // Which arguments are templated is only known of arguments that compile.
    if (compiled === undefined) return;
    // Templated and computed values are only known at run time; judge everything else now.
    const templated = [...templateLocations(compiled), ...expressionLocations(compiled)].map((location) => location.path);
    const result = kind.argsSchema.safeParse(step.args);
    if (!result.success) {
      for (const issue of result.error.issues) {
        if (templated.some((path) => startsWith(issue.path, path))) continue;
        problems.push(`${where} ${formatIssue(['args', ...issue.path], issue.message)}`);
      }
    }
  };

  walkDefinition(definition.steps, (node, path, scope) => {
    const where = `${path} (${node.id})`;
    const declared = declarations.get(node.id);
    // A duplicate id was reported; its references would be judged against the other step.
    if (declared === undefined || declared.path !== path) return;
    if (draft.unjudged.has(node)) {
      if ('kind' in node && node.kind !== '' && steps.get(node.kind) === undefined) problems.push(`${where}: unknown step kind "${node.kind}"`);
      return;
    }
    const at: Position = { ...scope, order: declared.order };
    if ('kind' in node) {
      checkStep(where, node, at);
    } else if ('choice' in node) {
      node.choice.forEach((branch, index) => {
        checkCondition(`${where} choice[${index}].when`, branch.when, at);
      });
    } else if ('forEach' in node) {
      checkValue(`${where} forEach`, node.forEach, at);
      if (typeof node.concurrency === 'string') checkValue(`${where} concurrency`, node.concurrency, at);
    } else if ('repeat' in node) {
      if (node.repeat.item !== undefined) checkValue(`${where} repeat.item`, node.repeat.item, at);
      // Evaluated after each iteration's steps, inside the iteration.
      const after: Position = { ancestors: [...scope.ancestors, node.id], loop: node.id, inCatch: scope.inCatch, order: declared.last + 0.5 };
      checkCondition(`${where} repeat.until`, node.repeat.until, after);
      if (node.repeat.nextItem !== undefined) checkValue(`${where} repeat.nextItem`, node.repeat.nextItem, after);
    } else if ('return' in node) {
      for (const [name, value] of Object.entries(node.return)) {
        if (draft.outputsKnown && !Object.hasOwn(definition.outputs, name)) problems.push(`${where} return.${name}: the Choreo declares no output "${name}"`);
        checkValue(`${where} return.${name}`, value, at);
      }
    } else if ('fail' in node) {
      checkValue(`${where} fail`, node.fail, at);
    }
  });

  for (const [name, output] of Object.entries(definition.outputs)) checkValue(`outputs.${name}.value`, output.value, undefined);

  return problems;
}

/** Where a value is evaluated, for what its templates may reference. */

interface Position extends NodeScope {
  /** Document order: a step may reference steps of a lower order. */
  readonly order: number;
}

interface Declaration {
  readonly path: string;
  readonly order: number;
  /** Order of its last descendant (its own for a step). */
  readonly last: number;
  /** The innermost loop it is part of: its results exist only in that loop's iterations. */
  readonly loop: string | undefined;
}

/** Numbers every step and block in document order; step ids are unique across the document. */
function declare(nodes: readonly NodeDefinition[], problems: string[]): Map<string, Declaration> {
  const declarations = new Map<string, Declaration>();
  const pending: { id: string; path: string; order: number; loop: string | undefined }[] = [];
  let order = 0;
  walkDefinition(nodes, (node, path, scope) => {
    const existing = declarations.get(node.id) ?? pending.find((entry) => entry.id === node.id);
    if (existing !== undefined) problems.push(`${path}: step id "${node.id}" is already used by ${existing.path}`);
    pending.push({ id: node.id, path, order: order++, loop: scope.loop });
  });
  // The last descendant of each: the one before the next node that is not inside it.
  for (const [index, entry] of pending.entries()) {
    if (declarations.has(entry.id)) continue;
    let last = entry.order;
    const prefix = `${entry.path}.`;
    for (let next = index + 1; next < pending.length && (pending[next] as { path: string }).path.startsWith(prefix); next++)
      last = (pending[next] as { order: number }).order;
    declarations.set(entry.id, { path: entry.path, order: entry.order, last, loop: entry.loop });
  }
  return declarations;
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
