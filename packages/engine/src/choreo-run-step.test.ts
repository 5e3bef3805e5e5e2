import { type ChildEnd, ChildFailedError, type ChildRuns, type ChoreoDefinition, parseDefinition, StepTimeoutError } from '@ces/language';
import { createStepLibrary } from '@ces/steps';
import { describe, expect, it } from 'vitest';
import { runChoreo } from './run-choreo.ts';
import type { EngineHooks, ResumePoint, RunOutcome } from './run-choreo.ts';

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

/**
 * One child that ends when the test says so: its waiters are woken then, as the worker's
 * ChildRuns wake on the child's end message; a waiter whose signal aborts is told why.
 */
function childEndingLater(): ChildRuns & { end(end: ChildEnd): void; starts: number; resumedStarts: number; abortedWith: unknown[] } {
  let ended: ChildEnd | undefined;
  const waiters = new Set<() => void>();
  const children = {
    starts: 0,
    resumedStarts: 0,
    abortedWith: [] as unknown[],
    end(end: ChildEnd) {
      ended = end;
      for (const wake of waiters) wake();
    },
    async start(request: { resumed?: boolean }) {
      children.starts += 1;
      if (request.resumed === true) children.resumedStarts += 1;
      return { id: 'child-1' };
    },
    awaitEnd(_id: string, signal: AbortSignal) {
      return new Promise<ChildEnd>((resolve, reject) => {
        if (ended !== undefined) return resolve(ended);
        const wake = () => {
          waiters.delete(wake);
          signal.removeEventListener('abort', onAbort);
          if (ended !== undefined) resolve(ended);
        };
        const onAbort = () => {
          waiters.delete(wake);
          children.abortedWith.push(signal.reason);
          reject(new Error('stopped waiting'));
        };
        waiters.add(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
  };
  return children;
}

describe('a choreo.run step in a run that may be suspended', () => {
  const SUSPEND_FROM_MS = 50;
  const parent = define({
    outputs: { Echo: { description: 'The child.', value: '{{steps.child.outputs.Echo}}' } },
    steps: [{ id: 'child', kind: 'choreo.run', timeoutMs: 60_000, args: { choreo: '/Library/X' } }],
  });

  async function run(definition: ChoreoDefinition, children: ChildRuns, resumeFrom?: ResumePoint): Promise<RunOutcome> {
    return runChoreo({
      definition,
      inputs: {},
      steps: library,
      hooks,
      childRuns: children,
      suspension: { minimumMs: SUSPEND_FROM_MS, callbackUrl: () => undefined },
      ...(resumeFrom ? { resumeFrom } : {}),
    });
  }

  it("suspends the run while its child runs on, due at the step's timeout, naming the child; resumed after the end, takes its outputs", async () => {
    const children = childEndingLater();
    const before = Date.now();
    const first = await run(parent, children);
    expect(first).toMatchObject({ kind: 'suspended', children: ['child-1'] });
    if (first.kind !== 'suspended') throw new Error('not suspended');
    expect(first.untilMs).toBeGreaterThanOrEqual(before + 60_000);
    expect(first.untilMs).toBeLessThan(Date.now() + 60_000);
    // Its due time is recorded with the suspension, so that a later take keeps the step's timeout.
    expect(first.waitEntries).toEqual([['child@', first.untilMs]]);
    // Pausing the wait is no reason to terminate the child.
    expect(children.abortedWith).toEqual(['child-wait-paused']);

    children.end({ status: 'SUCCESS', outputs: { Echo: 'done' } });
    const resumed = await run(parent, children, { nextStep: 0, results: {}, progress: new Map(first.waitEntries) });
    expect(resumed).toMatchObject({ kind: 'completed', checkpoint: { outputs: { Echo: 'done' } } });
    // The same child, found again by its address: never a second one, and known to be accepted already.
    expect(children.starts).toBe(2);
    expect(children.resumedStarts).toBe(1);
  });

  it('suspends again at once, holding no worker, when taken again while its child runs on', async () => {
    const children = childEndingLater();
    // A bound of an hour in the worker: a take that waited it out would never answer.
    const resumed = await runChoreo({
      definition: parent,
      inputs: {},
      steps: library,
      hooks,
      childRuns: children,
      suspension: { minimumMs: 3_600_000, callbackUrl: () => undefined },
      resumeFrom: { nextStep: 0, results: {}, progress: new Map([['child@', Date.now() + 60_000]]) },
    });
    expect(resumed).toMatchObject({ kind: 'suspended', children: ['child-1'] });
    expect(children.abortedWith).toEqual(['child-wait-paused']);
  });

  it('waits in the worker for a child that ends within the threshold', async () => {
    const children = childEndingLater();
    setTimeout(() => children.end({ status: 'SUCCESS', outputs: { Echo: 'soon' } }), 5);
    expect(await run(parent, children)).toMatchObject({ kind: 'completed', checkpoint: { outputs: { Echo: 'soon' } } });
  });

  it('fails the step with child-failed when the child it was suspended for failed', async () => {
    const children = childEndingLater();
    const first = await run(parent, children);
    children.end({ status: 'ERROR', outputs: {}, error: 'boom' });
    const resumed = await run(parent, children, { nextStep: 0, results: {}, progress: new Map(first.kind === 'suspended' ? first.waitEntries : []) });
    expect(resumed).toMatchObject({ kind: 'failed', error: 'child: child execution child-1 ended ERROR: boom' });
  });

  it('times the step out at its recorded due time, terminating the child with it', async () => {
    const children = childEndingLater();
    const resumed = await run(parent, children, { nextStep: 0, results: {}, progress: new Map([['child@', Date.now() - 1]]) });
    expect(resumed).toMatchObject({ kind: 'failed', error: 'child: timed out after 60000 ms' });
    expect(children.abortedWith).toHaveLength(1);
    expect(children.abortedWith[0]).toBeInstanceOf(StepTimeoutError);
  });

  it('suspends a parallel block until the earliest of its waits, naming the children it waits for', async () => {
    const children = childEndingLater();
    const before = Date.now();
    const outcome = await run(
      define({
        steps: [
          {
            id: 'both',
            parallel: [
              [{ id: 'child', kind: 'choreo.run', timeoutMs: 3_600_000, args: { choreo: '/Library/X' } }],
              [{ id: 'pause', kind: 'control.wait', args: { milliseconds: '30000' } }],
            ],
          },
        ],
      }),
      children,
    );
    expect(outcome).toMatchObject({ kind: 'suspended', children: ['child-1'] });
    if (outcome.kind !== 'suspended') throw new Error('not suspended');
    expect(outcome.untilMs).toBeGreaterThanOrEqual(before + 30_000);
    expect(outcome.untilMs).toBeLessThan(before + 3_600_000);
  });
});
