import { endBlock, settle } from './construct.ts';
import type { Construct, Flow } from './construct.ts';

type Suspended = Extract<Flow, { type: 'suspended' }>;

/**
 * `parallel`: its branches at once; its result is the list of their results. The first to fail,
 * return or stop ends the others. A branch in a durable wait waits while the others go on until
 * they end or wait too; the block is then suspended in a call back's wait if a branch waits for
 * one (its entry and URL go with the suspension), its result so far the list with that branch's
 * where it stands.
 */
export const parallel: Construct<'parallel'> = async (node, scope, interpreter) => {
  const cancellation = interpreter.cancellationWithin(scope);
  let first: Flow | undefined;
  let waiting: { index: number; flow: Suspended } | undefined;
  const flows = await Promise.all(
    node.branches.map(async (branch, index) => {
      const branchScope = { ...scope, cancellation };
      let branchFlow = await interpreter.runNodes(branch, branchScope);
      if (branchFlow.type === 'done') branchFlow = interpreter.branchCompleted(branchScope, node.id, index) ?? branchFlow;
      if (branchFlow.type === 'suspended') {
        if (waiting === undefined || (waiting.flow.callback === undefined && branchFlow.callback !== undefined)) waiting = { index, flow: branchFlow };
      } else if (branchFlow.type !== 'done' && branchFlow.type !== 'cancelled' && first === undefined) {
        first = branchFlow;
        endBlock(cancellation, branchFlow);
      }
      return branchFlow;
    }),
  );
  if (first !== undefined) return first;
  const results: unknown[] = flows.map((branchFlow) => (branchFlow.type === 'done' ? (branchFlow.last?.value ?? null) : null));
  if (waiting !== undefined) {
    const { index, flow } = waiting;
    if (flow.partial === undefined) return flow;
    results[index] = flow.partial.value;
    return settle(node.id, scope, { ...flow, partial: { value: results } });
  }
  return settle(node.id, scope, { type: 'done', last: { value: results } });
};
