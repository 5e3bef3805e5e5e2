import { endBlock, settle } from './construct.ts';
import type { Construct, Flow } from './construct.ts';

type Suspended = Extract<Flow, { type: 'suspended' }>;

/**
 * `parallel`: its branches at once; its result is the list of their results. The first to fail,
 * return, stop or suspend ends the others. Suspended, the block waits in a call back's wait if a
 * branch suspended in one (its entry and URL go with the suspension, whichever branch suspended
 * first), its result so far the list with that branch's where it stands. Its branches cut short
 * by an enclosing block that ended leave it cancelled, not done.
 */
export const parallel: Construct<'parallel'> = async (node, scope, interpreter) => {
  const cancellation = interpreter.cancellationWithin(scope);
  let first: Flow | undefined;
  let callback: { index: number; flow: Suspended } | undefined;
  const flows = await Promise.all(
    node.branches.map(async (branch, index) => {
      const branchScope = { ...scope, cancellation };
      let branchFlow = await interpreter.runNodes(branch, branchScope);
      if (branchFlow.type === 'done') branchFlow = interpreter.branchCompleted(branchScope, node.id, index) ?? branchFlow;
      if (branchFlow.type === 'suspended' && branchFlow.callback !== undefined) callback ??= { index, flow: branchFlow };
      if (branchFlow.type !== 'done' && branchFlow.type !== 'cancelled' && first === undefined) {
        first = branchFlow;
        endBlock(cancellation, branchFlow);
      }
      return branchFlow;
    }),
  );
  const results: unknown[] = flows.map((branchFlow) => (branchFlow.type === 'done' ? (branchFlow.last?.value ?? null) : null));
  if (first?.type === 'suspended' && callback !== undefined) {
    const { index, flow } = callback;
    if (flow.partial === undefined) return flow;
    results[index] = flow.partial.value;
    return settle(node.id, scope, { ...flow, partial: { value: results } });
  }
  if (first !== undefined) return first;
  if (flows.some((branchFlow) => branchFlow.type === 'cancelled')) return { type: 'cancelled' };
  return settle(node.id, scope, { type: 'done', last: { value: results } });
};
