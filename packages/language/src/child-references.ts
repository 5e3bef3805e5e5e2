import type { ChoreoDefinition } from './definition.ts';
import { isExpression } from './expression.ts';

/**
 * The Choreos a definition runs as children (`choreo.run` steps anywhere in its blocks) whose id
 * is written out, not computed: the ones a catalogue can check before any run. A computed id is
 * bounded at run time by the depth limit instead.
 */
export function childReferences(definition: ChoreoDefinition): string[] {
  const found = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (record.kind === 'choreo.run' && record.args !== null && typeof record.args === 'object') {
      const choreo = (record.args as Record<string, unknown>).choreo;
      if (typeof choreo === 'string' && !choreo.includes('{{') && !isExpression(choreo)) found.add(choreo);
    }
    for (const [key, value] of Object.entries(record)) if (key !== 'args') visit(value);
  };
  visit(definition.steps);
  return [...found];
}

/**
 * For each id, why it cannot run as a catalogue entry given the others: it runs as a child a
 * Choreo the catalogue does not hold, or it is part of a cycle of Choreos running one another
 * (itself included), which could only end at the depth limit.
 */
export function childReferenceProblems(references: ReadonlyMap<string, readonly string[]>, exists: (id: string) => boolean): Map<string, string[]> {
  const problems = new Map<string, string[]>();
  const add = (id: string, problem: string) => problems.set(id, [...(problems.get(id) ?? []), problem]);
  for (const [id, children] of references) {
    for (const child of children) if (!exists(child)) add(id, `choreo.run names ${child}, which is not a valid Choreo of the catalogue`);
  }
  // Depth-first search for cycles; every member of a cycle found is reported with the whole cycle.
  const state = new Map<string, 'visiting' | 'done'>();
  const path: string[] = [];
  const inCycle = new Set<string>();
  const walk = (id: string): void => {
    state.set(id, 'visiting');
    path.push(id);
    for (const child of references.get(id) ?? []) {
      const seen = state.get(child);
      if (seen === 'visiting') {
        const cycle = [...path.slice(path.indexOf(child)), child];
        for (const member of cycle.slice(0, -1)) {
          if (inCycle.has(member)) continue;
          inCycle.add(member);
          add(member, `choreo.run forms a cycle: ${cycle.join(' → ')}`);
        }
      } else if (seen === undefined && references.has(child)) {
        walk(child);
      }
    }
    path.pop();
    state.set(id, 'done');
  };
  for (const id of references.keys()) if (!state.has(id)) walk(id);
  // A Choreo that runs one refused here cannot run either, up to its own callers.
  for (let changed = true; changed; ) {
    changed = false;
    for (const [id, children] of references) {
      if (problems.has(id)) continue;
      const refused = children.find((child) => problems.has(child));
      if (refused === undefined) continue;
      add(id, `choreo.run names ${refused}, which is not a valid Choreo of the catalogue`);
      changed = true;
    }
  }
  return problems;
}
