import { evaluateValue, MAX_LOOP_CONCURRENCY, MAX_LOOP_ITERATIONS, stepAddress } from '@ces/language';
import type { CompiledNode } from '@ces/language';
import { endBlock, settle } from './construct.ts';
import type { Construct, Flow, Interpreter, Scope } from './construct.ts';
import { LoopSize } from './loop-size.ts';

/**
 * `forEach`: its body once per item of a JSON array, up to `concurrency` iterations at once; its
 * result is the list of its iterations' results. Each iteration is one progress entry.
 */
export const forEach: Construct<'forEach'> = async (node, scope, interpreter) => settle(node.id, scope, await runLoop(node, scope, interpreter));

async function runLoop(node: Extract<CompiledNode, { type: 'forEach' }>, scope: Scope, interpreter: Interpreter): Promise<Flow> {
  const listed = await interpreter.evaluate(node.id, scope, () => evaluateValue(node.items, interpreter.context(scope)));
  if (listed.type === 'failed') return listed;
  let items = listed.value;
  if (typeof items === 'string') {
    try {
      items = JSON.parse(items);
    } catch {
      // reported below
    }
  }
  if (!Array.isArray(items)) return interpreter.failed(stepAddress(scope.within, node.id), 'invalid', 'forEach needs a JSON array');
  if (items.length > MAX_LOOP_ITERATIONS)
    return interpreter.failed(stepAddress(scope.within, node.id), 'limit', `forEach lists ${items.length} items, more than ${MAX_LOOP_ITERATIONS}`);

  const wanted = await interpreter.evaluate(node.id, scope, () => evaluateValue(node.concurrency, interpreter.context(scope)));
  if (wanted.type === 'failed') return wanted;
  const concurrency =
    typeof wanted.value === 'number' ? wanted.value : typeof wanted.value === 'string' && wanted.value.trim() !== '' ? Number(wanted.value) : Number.NaN;
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_LOOP_CONCURRENCY) {
    return interpreter.failed(
      stepAddress(scope.within, node.id),
      'invalid',
      `concurrency must be a whole number from 1 to ${MAX_LOOP_CONCURRENCY}, not ${JSON.stringify(wanted.value)}`,
    );
  }

  const list: unknown[] = items;
  const results: unknown[] = new Array(list.length).fill(null);
  const cancellation = interpreter.cancellationWithin(scope);
  const size = new LoopSize(interpreter.maxStepResultChars);
  let first: Flow | undefined;
  let next = 0;
  /** The iteration waiting for a call back, when one does. */
  let waiting: number | undefined;
  const lane = async () => {
    while (first === undefined && next < list.length) {
      const index = next++;
      const flow = await interpreter.iteration(node, { ...scope, cancellation }, index, list[index], (iteration) => iteration.result);
      if (flow.type === 'iterated') {
        results[index] = flow.result;
        if (size.add(flow.result)) {
          first ??= interpreter.failed(
            stepAddress(scope.within, node.id),
            'limit',
            `the results of its iterations are longer than ${interpreter.maxStepResultChars} characters`,
          );
          endBlock(cancellation, first);
        }
      } else if (flow.type !== 'cancelled' && first === undefined) {
        first = flow;
        endBlock(cancellation, flow);
        if (flow.type === 'suspended' && flow.partial !== undefined) {
          results[index] = flow.partial.value;
          waiting = index;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, list.length) }, lane));
  // The iterations so far, up to the one waiting (whose result is its waiting step's).
  if (first?.type === 'suspended' && waiting !== undefined) return { ...first, partial: { value: results.slice(0, waiting + 1) } };
  return first ?? { type: 'done', last: { value: results } };
}
