import { type ChildEnd, ChildFailedError, type ChildRuns, type ChoreoDefinition, parseDefinition } from '@ces/language';
import { createStepLibrary } from '@ces/steps';
import { describe, expect, it } from 'vitest';
import { runChoreo } from './run-choreo.ts';
import type { EngineHooks } from './run-choreo.ts';

const library = createStepLibrary();

function define(raw: Record<string, unknown>): ChoreoDefinition {
  const result = parseDefinition({ description: 'A test.', ...raw }, library);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

const hooks: EngineHooks = { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined };

/**
 * Children that end at once: each a text of its inputs, or a failure for inputs that ask for one.
 * The engine's side of the capability is what is tested here; the worker's, with Redis and
 * workers, in apps/worker/src/child-runs.test.ts and test/e2e/sub-choreos.test.ts.
 */
function immediateChildren(): ChildRuns & { started: { choreo: string; address: string }[] } {
  const ends = new Map<string, ChildEnd>();
  const started: { choreo: string; address: string }[] = [];
  return {
    started,
    async start({ choreo, inputs, address }) {
      started.push({ choreo, address });
      const id = `child-${started.length}`;
      ends.set(
        id,
        inputs.Fail === 'yes' ? { status: 'ERROR', outputs: {}, error: 'asked to fail' } : { status: 'SUCCESS', outputs: { Echo: `${choreo} ${inputs.Text}` } },
      );
      return { id };
    },
    async awaitEnd(id) {
      const end = ends.get(id);
      if (end === undefined) throw new Error(`no child ${id}`);
      return end;
    },
  };
}

describe('the choreo.run step in the engine', () => {
  it("gives the step its address, in loops too, and takes the child's outputs as its result", async () => {
    const children = immediateChildren();
    const outcome = await runChoreo({
      definition: define({
        outputs: { Echoes: { description: 'Each child.', value: '{% $join(steps.each.outputs.Echo, ",") %}' } },
        steps: [
          {
            id: 'each',
            forEach: '{% ["a", "b"] %}',
            steps: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Library/X', inputs: { Text: '{{loop.item}}' } } }],
          },
        ],
      }),
      inputs: {},
      steps: library,
      hooks,
      childRuns: children,
    });
    expect(outcome).toMatchObject({ kind: 'completed', checkpoint: { outputs: { Echoes: '/Library/X a,/Library/X b' } } });
    expect(children.started).toEqual([
      { choreo: '/Library/X', address: 'each[0].child' },
      { choreo: '/Library/X', address: 'each[1].child' },
    ]);
  });

  it('fails the step with the type child-failed, which a catch takes', async () => {
    const outcome = await runChoreo({
      definition: define({
        outputs: { Caught: { description: 'The catch.', value: '{{steps.note.text}}' } },
        steps: [
          {
            id: 'guarded',
            try: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Library/X', inputs: { Fail: 'yes' } } }],
            catch: [{ errors: ['child-failed'], steps: [{ id: 'note', kind: 'text.template', args: { text: '{{error.type}} at {{error.step}}' } }] }],
          },
        ],
      }),
      inputs: {},
      steps: library,
      hooks,
      childRuns: immediateChildren(),
    });
    expect(outcome).toMatchObject({ kind: 'completed', checkpoint: { outputs: { Caught: 'child-failed at child' } } });
    expect(new ChildFailedError('x', 'ERROR', 'boom').message).toBe('child execution x ended ERROR: boom');
  });

  it('fails the step where no child runs can be started', async () => {
    const outcome = await runChoreo({
      definition: define({ steps: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Library/X' } }] }),
      inputs: {},
      steps: library,
      hooks,
    });
    expect(outcome).toMatchObject({ kind: 'failed', error: 'child: sub-Choreos run only on a worker' });
  });
});
