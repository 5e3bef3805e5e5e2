import type { ConditionDefinition } from './definition.ts';
import type { TemplateContext } from './template.ts';
import { compileValue, evaluateValue } from './templated-value.ts';
import type { CompiledValue } from './templated-value.ts';

/**
 * A compiled condition of a `choice` or a `repeat`. Its values are templates or expressions; a
 * value that is not available (a template referencing a step that did not run, an expression
 * selecting nothing) is absent, and an absent value satisfies only `notEquals` and
 * `"exists": false`. Throws ExpressionError when an expression fails.
 */
export interface CompiledCondition {
  /** Every value the condition reads, for validation. */
  readonly values: readonly CompiledValue[];
  holds(context: TemplateContext): Promise<boolean>;
}

/** Throws TemplateSyntaxError or ExpressionSyntaxError for a malformed value. */
export function compileCondition(definition: ConditionDefinition): CompiledCondition {
  if (typeof definition === 'string') {
    const value = compileValue(definition);
    return { values: [value], holds: async (context) => isTrue(await availableValue(value, context)) };
  }
  if ('all' in definition) {
    const parts = definition.all.map(compileCondition);
    return {
      values: parts.flatMap((part) => part.values),
      async holds(context) {
        for (const part of parts) if (!(await part.holds(context))) return false;
        return true;
      },
    };
  }
  if ('any' in definition) {
    const parts = definition.any.map(compileCondition);
    return {
      values: parts.flatMap((part) => part.values),
      async holds(context) {
        for (const part of parts) if (await part.holds(context)) return true;
        return false;
      },
    };
  }
  if ('not' in definition) {
    const inner = compileCondition(definition.not);
    return { values: inner.values, holds: async (context) => !(await inner.holds(context)) };
  }
  const value = compileValue(definition.value);
  const test = comparison(definition);
  return { values: [value], holds: async (context) => test(await availableValue(value, context)) };
}

type Test = (value: unknown) => boolean;

function comparison(definition: Exclude<ConditionDefinition, string | { all: unknown } | { any: unknown } | { not: unknown }>): Test {
  const { equals, notEquals, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual, exists } = definition;
  const among = definition.in;
  if (equals !== undefined) return (value) => value !== undefined && textOf(value) === equals;
  if (notEquals !== undefined) return (value) => value === undefined || textOf(value) !== notEquals;
  if (among !== undefined) return (value) => value !== undefined && among.includes(textOf(value));
  if (exists !== undefined) return (value) => (value !== undefined) === exists;
  if (lessThan !== undefined) return numeric((number) => number < lessThan);
  if (lessThanOrEqual !== undefined) return numeric((number) => number <= lessThanOrEqual);
  if (greaterThan !== undefined) return numeric((number) => number > greaterThan);
  if (greaterThanOrEqual !== undefined) return numeric((number) => number >= greaterThanOrEqual);
  // The schema requires one comparison; an empty one never holds.
  return () => false;
}

/** A number compared: a JSON number, or text that is one; anything else fails the comparison. */
function numeric(test: (number: number) => boolean): Test {
  return (value) => {
    const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
    return Number.isFinite(number) && test(number);
  };
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function isTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

/** The value, or undefined when it is not available. */
async function availableValue(value: CompiledValue, context: TemplateContext): Promise<unknown> {
  switch (value.type) {
    case 'template':
      return value.template.render(context);
    case 'expression':
      return value.expression.evaluate(context);
    default:
      return evaluateValue(value, context);
  }
}
