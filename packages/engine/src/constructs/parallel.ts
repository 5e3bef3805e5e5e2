import { endBlock, settle } from './construct.ts';
import type { Construct, Flow } from './construct.ts';

/** `parallel`: its branches at once; its result is the list of their results. The first to fail, return, stop or suspend ends the others. */
export const parallel: Construct<'parallel'> = async (node, scope, interpreter) => {
  const cancellation = interpreter.cancellationWithin(scope);
  let first: Flow | undefined;
  const flows = await Promise.all(
    node.branches.map(async (branch, index) => {
      const branchScope = { ...scope, cancellation };
      let branchFlow = await interpreter.runNodes(branch, branchScope);
      if (branchFlow.type === 'done') branchFlow = interpreter.branchCompleted(branchScope, node.id, index) ?? branchFlow;
      if (branchFlow.type !== 'done' && branchFlow.type !== 'cancelled' && first === undefined) {
        first = branchFlow;
        endBlock(cancellation, branchFlow);
      }
      return branchFlow;
    }),
  );
  if (first !== undefined) return first;
  return settle(node.id, scope, {
    type: 'done',
    last: { value: flows.map((branchFlow) => (branchFlow.type === 'done' ? (branchFlow.last?.value ?? null) : null)) },
  });
};
