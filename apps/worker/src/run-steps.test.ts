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

  /** Runs `waits` (their milliseconds, one control.wait each) as a taken run would, with `more` of runSteps' options. */
  function runWaits(waits: string[], more: Partial<Parameters<typeof runSteps>[0]> = {}) {
    const parsed = parseDefinition(
      { description: 'Waits.', outputs: {}, steps: waits.map((milliseconds, index) => ({ id: `wait${index}`, kind: 'control.wait', args: { milliseconds } })) },
      steps,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    const record = acceptedRecord(newExecutionFixture({ deadline: Date.now() + 120_000 }));
    return runSteps({
      record,
      definition: parsed.definition,
      run: { executionId: record.id, controller: new AbortController(), done: Promise.resolve(), stepsOver: () => {} },
      steps,
      log: () => createLogger({ name: 'run-steps-test', level: 'silent' }),
      history: new PendingStepEvents('10.0.0.1'),
      beforeStep: () => undefined,
      afterStep: async () => undefined,
      afterProgress: async () => undefined,
      ...more,
    });
  }

  it('goes on with a wait in the worker when telling its start fails (Redis failing over): the step does not fail', async () => {
    let writes = 0;
    const outcome = await runWaits(['10'], {
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
    const told: { kind: string; ok: boolean }[] = [];
    const outcome = await runWaits(['1', '60000'], {
      onStepEnd: ({ kind, ok }) => told.push({ kind, ok }),
      suspension: { minimumMs: 1_000, callbackUrl: () => '' },
    });
    expect(outcome).toMatchObject({ kind: 'suspended' });
    expect(told).toEqual([{ kind: 'control.wait', ok: true }]);
  });
});
