import type { NodeDefinition } from './definition.ts';

/** Where a step or block stands in its Choreo. */
export interface NodeScope {
  /** Ids of the blocks around it, outermost first. */
  readonly ancestors: readonly string[];
  /** The innermost loop around it. */
  readonly loop: string | undefined;
  readonly inCatch: boolean;
}

/** Visits every step and block of `nodes`, in document order, with its path (from `steps`) and the blocks around it. */
export function walkDefinition(nodes: readonly NodeDefinition[], visit: (node: NodeDefinition, path: string, scope: NodeScope) => void): void {
  walk(nodes, 'steps', { ancestors: [], loop: undefined, inCatch: false }, visit);
}

function walk(nodes: readonly NodeDefinition[], path: string, scope: NodeScope, visit: (node: NodeDefinition, path: string, scope: NodeScope) => void) {
  nodes.forEach((node, index) => {
    const here = `${path}[${index}]`;
    visit(node, here, scope);
    const inside = (loop: boolean, inCatch = scope.inCatch): NodeScope => ({
      ancestors: [...scope.ancestors, node.id],
      loop: loop ? node.id : scope.loop,
      inCatch,
    });
    if ('choice' in node) {
      node.choice.forEach((branch, branchIndex) => {
        walk(branch.steps, `${here}.choice[${branchIndex}].steps`, inside(false), visit);
      });
      walk(node.default, `${here}.default`, inside(false), visit);
    } else if ('forEach' in node || 'repeat' in node) {
      walk(node.steps, `${here}.steps`, inside(true), visit);
    } else if ('parallel' in node) {
      node.parallel.forEach((branch, branchIndex) => {
        walk(branch, `${here}.parallel[${branchIndex}]`, inside(false), visit);
      });
    } else if ('try' in node) {
      walk(node.try, `${here}.try`, inside(false), visit);
      (node.catch ?? []).forEach((handler, handlerIndex) => {
        walk(handler.steps, `${here}.catch[${handlerIndex}].steps`, inside(false, true), visit);
      });
      if (node.finally !== undefined) walk(node.finally, `${here}.finally`, inside(false), visit);
    }
  });
}
