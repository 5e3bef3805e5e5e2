import { parseDefinition } from '@ces/language';
import { createLogger } from '@ces/observability';
import { createSandbox } from '@ces/sandbox';
import { createStepLibrary, DEFAULT_STEP_LIBRARY_OPTIONS } from '@ces/steps';
import { acceptedRecord } from '@ces/store';
import { newExecutionFixture } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { PendingStepEvents, runSteps } from './run-steps.ts';

describe('a run’s steps in the worker', () => {
  const sandbox = createSandbox();
  const steps = createStepLibrary({ ...DEFAULT_STEP_LIBRARY_OPTIONS, sandbox });

  it('goes on with a wait in the worker when telling its start fails (Redis failing over): the step does not fail', async () => {
    const parsed = parseDefinition(
      { description: 'One short wait.', outputs: {}, steps: [{ id: 'pause', kind: 'control.wait', args: { milliseconds: '10' } }] },
      steps,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const record = acceptedRecord(newExecutionFixture({ deadline: Date.now() + 30_000 }));
    let writes = 0;
    const outcome = await runSteps({
      record,
      definition: parsed.definition,
      run: { executionId: record.id, controller: new AbortController(), done: Promise.resolve(), stepsOver: () => {} },
      steps,
      log: () => createLogger({ name: 'run-steps-test', level: 'silent' }),
      history: new PendingStepEvents('10.0.0.1'),
      beforeStep: () => undefined,
      afterStep: async () => undefined,
      afterProgress: async () => undefined,
      // The step's start is written; the wait's, from inside the step, meets the dead primary.
      writeRunEvents: async () => {
        writes += 1;
        if (writes > 1) throw new Error('Command aborted due to connection close');
      },
    });
    expect(writes).toBe(2);
    expect(outcome).toMatchObject({ kind: 'completed' });
  });

  it('tells the metrics no step duration for a step that suspends its run: it has not ended', async () => {
    const parsed = parseDefinition(
      {
        description: 'A step, then a long wait.',
        outputs: {},
        steps: [
          { id: 'first', kind: 'control.wait', args: { milliseconds: '1' } },
          { id: 'pause', kind: 'control.wait', args: { milliseconds: '60000' } },
        ],
      },
      steps,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const record = acceptedRecord(newExecutionFixture({ deadline: Date.now() + 120_000 }));
    const told: { kind: string; ok: boolean }[] = [];
    const outcome = await runSteps({
      record,
      definition: parsed.definition,
      run: { executionId: record.id, controller: new AbortController(), done: Promise.resolve(), stepsOver: () => {} },
      steps,
      log: () => createLogger({ name: 'run-steps-test', level: 'silent' }),
      onStepEnd: ({ kind, ok }) => told.push({ kind, ok }),
      history: new PendingStepEvents('10.0.0.1'),
      beforeStep: () => undefined,
      afterStep: async () => undefined,
      afterProgress: async () => undefined,
      suspension: { minimumMs: 1_000, callbackUrl: () => '' },
    });
    expect(outcome).toMatchObject({ kind: 'suspended' });
    expect(told).toEqual([{ kind: 'control.wait', ok: true }]);
  });
});
