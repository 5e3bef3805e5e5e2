import type { ChoreoDefinition, NodeDefinition } from './definition.ts';
import { branchAddress, isInsideAnyIteration, parseProgressAddress } from './progress-address.ts';
import { walkDefinition } from './walk-definition.ts';

/**
 * The entries of a failed run's progress (inside the top-level block it stopped in) that a redrive
 * of it starts from: the results of the steps and iterations that completed, and the markers of the
 * parallel branches that did. An iteration that did not complete runs again from its start, its
 * completed steps included (as a Map redrive of Step Functions does), so their entries go; the
 * entries inside a completed iteration go too, since the iteration's own entry stands for them. A
 * branch that did not complete runs again from its start too, its completed steps included, but
 * the completed iterations of its loops are kept: an iteration is the unit a redrive reuses, and a
 * loop of thousands in a branch must not run again whole because another step of it failed. How a step failed (`x!`) and what a wait left (`x@`, its token, a call back) go as well:
 * the failed step and the waits run again.
 *
 * Works on entries as stored (values untouched, sealed ones included), so that the kept ones can be
 * copied as they are.
 */
export function redriveProgress<Value>(definition: Pick<ChoreoDefinition, 'steps'>, entries: Iterable<readonly [string, Value]>): [string, Value][] {
  const stored = new Map(entries);
  const dropped = idsOfUnfinishedBranches(definition.steps, stored);
  const kept: [string, Value][] = [];
  for (const [address, value] of stored) {
    if (isInsideAnyIteration(address)) continue;
    const parsed = parseProgressAddress(address);
    const branch = BRANCH_MARKER.exec(address);
    if (branch !== null) {
      if (!dropped.has(branch[1] as string)) kept.push([address, value]);
      continue;
    }
    if (parsed === undefined || parsed.holds !== 'result') continue;
    if (dropped.has(parsed.id) && parsed.iteration === undefined) continue;
    kept.push([address, value]);
  }
  return kept;
}

const BRANCH_MARKER = /^([A-Za-z_][A-Za-z0-9_-]*)\{\d+\}$/;

/** The ids of every node inside a parallel branch (outside any loop) whose marker is not among the entries. */
function idsOfUnfinishedBranches(steps: readonly NodeDefinition[], stored: ReadonlyMap<string, unknown>): Set<string> {
  const ids = new Set<string>();
  walkDefinition(steps, (node, _path, scope) => {
    if (scope.loop !== undefined || !('parallel' in node)) return;
    node.parallel.forEach((branch, index) => {
      if (stored.has(branchAddress('', node.id, index))) return;
      walkDefinition(branch, (inside) => {
        ids.add(inside.id);
      });
    });
  });
  return ids;
}
