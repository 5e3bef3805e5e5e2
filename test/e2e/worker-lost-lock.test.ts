import { EXECUTION_QUEUE } from '@ces/store';
import { waitFor, must } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { StepCounter } from '../support/step-counter.ts';
import { writeWorkerTestCatalogue } from '../support/worker-test-catalogue.ts';

// A worker whose job lock lapses (here: deleted, as a Redis outage longer than the lock would
// leave it) must start no further step: the stall check soon gives the job to another worker,
// which resumes from the checkpoint, and two workers would run the same step.
describe('a job lock lost mid-run', () => {
  const catalogue = writeWorkerTestCatalogue();
  const counter = new StepCounter();
  let stack: Stack;

  beforeAll(async () => {
    await counter.start();
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 2, choreosDir: catalogue.dir });
  });

  afterAll(async () => {
    await stack?.stop();
    await counter.close();
    catalogue.remove();
  });

  it('stops its run before the next step, and the run resumes elsewhere with no step run twice', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/CountedMany', alice, { CounterURL: counter.urlFor('lapse') });
    await waitFor(async () => ((await stack.executions.get(id))?.nextStep ?? 0) >= 2, { what: 'the run to be under way' });
    const firstHost = must(await stack.executions.get(id)).host;
    expect(await stack.redis.del(`${stack.keys.prefix}:${EXECUTION_QUEUE}:${id}:lock`)).toBe(1);

    const ended = await stack.waitForEnd(id, alice, 60_000);
    expect(ended.status, stack.logs()).toBe('SUCCESS');
    expect(stack.logs()).toContain('job lock not renewed in time; stopped before the next step');
    expect(counter.stepsOf('lapse').sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => 2 * i));
    expect(firstHost).not.toBe('');
  });
});
