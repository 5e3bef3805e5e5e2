import { EXECUTION_QUEUE } from '@ces/store';
import { must, waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// A worker whose job lock lapses (here: deleted, as a Redis outage longer than the lock would
// leave it) must start no further step: the stall check soon gives the job to another worker,
// which resumes from the checkpoint, and two workers would run the same step.
describe('a job lock lost mid-run', () => {
  const harness = useWorkerTestStack({ workers: 2 });
  const { counter } = harness;

  it('stops its run before the next step, and the run resumes elsewhere with no step run twice', { timeout: 90_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    const id = await harness.stack.startRun('Test/CountedMany', alice, { CounterURL: counter.urlFor('lapse') });
    await waitFor(async () => ((await harness.stack.executions.get(id))?.nextStep ?? 0) >= 2, { what: 'the run to be under way' });
    const firstHost = must(await harness.stack.executions.get(id)).host;
    expect(await harness.stack.redis.del(`${harness.stack.keys.prefix}:${EXECUTION_QUEUE}:${id}:lock`)).toBe(1);

    const ended = await harness.stack.waitForEnd(id, alice, 60_000);
    expect(ended.status, harness.stack.logs()).toBe('SUCCESS');
    expect(harness.stack.logs()).toContain('job lock not renewed in time; stopped before the next step');
    expect(counter.stepsOf('lapse').sort((a, b) => a - b)).toEqual(Array.from({ length: 11 }, (_, i) => 2 * i));
    expect(firstHost).not.toBe('');
  });
});
