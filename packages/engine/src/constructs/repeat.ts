import { evaluateValue, stepAddress } from '@ces/language';
import type { CompiledNode } from '@ces/language';
import { settle } from './construct.ts';
import type { Construct, Flow, Interpreter, RepeatIteration, Scope } from './construct.ts';
import { LoopSize } from './loop-size.ts';

/**
 * `repeat`: its body again, each time with the next item, until `until` holds (at most
 * `maxIterations` times); its result is the list of its iterations' results. Each iteration is
 * one progress entry, which keeps its next item and whether `until` held.
 */
export const repeat: Construct<'repeat'> = async (node, scope, interpreter) => settle(node.id, scope, await runLoop(node, scope, interpreter));

async function runLoop(node: Extract<CompiledNode, { type: 'repeat' }>, scope: Scope, interpreter: Interpreter): Promise<Flow> {
  let item: unknown = null;
  if (node.item !== undefined) {
    const start = node.item;
    const first = await interpreter.evaluate(node.id, scope, () => evaluateValue(start, interpreter.context(scope)));
    if (first.type === 'failed') return first;
    item = first.value;
  }
  const results: unknown[] = [];
  const size = new LoopSize(interpreter.maxStepResultChars);
  for (let index = 0; ; index++) {
    if (index >= node.maxIterations) {
      return interpreter.failed(
        stepAddress(scope.within, node.id),
        'limit',
        `ran ${node.maxIterations} iterations (its maxIterations) without its "until" holding`,
      );
    }
    const flow = await interpreter.iteration(
      node,
      scope,
      index,
      item,
      (iteration) => iteration.result,
      async (iterationScope, result) => {
        const until = await interpreter.holds(node.until, iterationScope, node.id);
        if (typeof until !== 'boolean') return until;
        let nextItem = item;
        if (!until && node.nextItem !== undefined) {
          const template = node.nextItem;
          const evaluated = await interpreter.evaluate(node.id, iterationScope, () => evaluateValue(template, interpreter.context(iterationScope)));
          if (evaluated.type === 'failed') return evaluated;
          nextItem = evaluated.value;
        }
        return { result, item: nextItem, done: until };
      },
    );
    if (flow.type === 'suspended' && flow.partial !== undefined) return { ...flow, partial: { value: [...results, flow.partial.value] } };
    if (flow.type !== 'iterated') return flow;
    const recorded = flow.entry as RepeatIteration;
    results.push(recorded.result);
    if (size.add(recorded.result)) {
      return interpreter.failed(
        stepAddress(scope.within, node.id),
        'limit',
        `the results of its iterations are longer than ${interpreter.maxStepResultChars} characters`,
      );
    }
    if (recorded.done) return { type: 'done', last: { value: results } };
    item = recorded.item;
  }
}
