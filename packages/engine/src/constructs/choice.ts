import { settle } from './construct.ts';
import type { Construct } from './construct.ts';

/** `choice`: the steps of the first branch whose condition holds, else `default`. */
export const choice: Construct<'choice'> = async (node, scope, interpreter) => {
  let branch = node.otherwise;
  for (const candidate of node.branches) {
    const holds = await interpreter.holds(candidate.when, scope, node.id);
    if (typeof holds !== 'boolean') return holds;
    if (holds) {
      branch = candidate.steps;
      break;
    }
  }
  return settle(node.id, scope, await interpreter.runNodes(branch, scope));
};
