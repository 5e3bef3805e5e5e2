import { waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// A loop's iterations are checkpointed like steps: a run stopped or killed in the middle of one
// resumes (or ends) there, and no completed iteration runs twice.
describe('loops: every iteration checkpointed', () => {
  const harness = useWorkerTestStack({ workers: 2 });
  const { counter } = harness;

  /** How often each iteration's call ran, for iterations 0 to count - 1. */
  const callsPerIteration = (tag: string, count: number) => Array.from({ length: count }, (_, iteration) => counter.count(tag, iteration));

  it('resumes a SIGKILLed worker at the iteration it was in, never running a completed iteration again', { timeout: 90_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    // The kill lands while iteration 30's call is in flight: iterations 0-29 are recorded.
    counter.hold(30);
    const id = await harness.stack.startRun('Test/CountedLoop', alice, { CounterURL: counter.urlFor('kill'), Count: '60' });
    await waitFor(() => counter.count('kill', 30) === 1, { timeoutMs: 30_000, what: 'the run to reach iteration 30' });
    const taken = await harness.stack.executions.get(id);
    expect(taken).toMatchObject({ status: 'RUNNING', nextStep: 0 });
    // Appended entry by entry: each iteration's call, then the iteration in its place.
    const progressKey = harness.stack.keys.executionProgress(id);
    expect(await harness.stack.redis.hexists(progressKey, 'each[29]')).toBe(1);
    expect(await harness.stack.redis.hexists(progressKey, 'each[30]')).toBe(0);
    expect(await harness.stack.redis.hget(harness.stack.keys.execution(id), 'cursor')).toBe('each[29]');
    const { worker: victim, index: victimIndex } = harness.stack.workerOn(taken?.host);

    victim.kill('SIGKILL');
    await victim.exited;
    counter.release(30);

    const ended = await harness.stack.waitForEnd(id, alice, 60_000);
    expect(ended.status).toBe('SUCCESS');
    expect(ended.host).toBe(`10.0.0.${2 - victimIndex}`);
    // Only iteration 30, the one the kill interrupted, ran twice.
    expect(callsPerIteration('kill', 60)).toEqual(Array.from({ length: 60 }, (_, iteration) => (iteration === 30 ? 2 : 1)));
    expect(counter.count('kill', 1_000_000)).toBe(1);
    const outputs = await harness.stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice);
    expect(outputs.json().output).toMatchObject({ Iterations: '60', After: '200', CompletedSteps: '2' });
    // Only needed to resume: gone with the end.
    expect(await harness.stack.redis.exists(progressKey)).toBe(0);
    expect(await harness.stack.redis.hexists(harness.stack.keys.execution(id), 'cursor')).toBe(0);
  });

  it('stops between iterations when terminated, each completed iteration run once', { timeout: 60_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    const id = await harness.stack.startRun('Test/CountedLoop', alice, { CounterURL: counter.urlFor('terminate'), Count: '1000', WaitMilliseconds: '20' });
    await waitFor(() => counter.count('terminate') >= 5, { timeoutMs: 20_000, what: 'five iterations' });
    expect((await harness.stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBe(204);
    const ended = await harness.stack.waitForEnd(id, alice, 20_000);
    expect(ended.status).toBe('TERMINATED_MANUALLY');
    const made = counter.count('terminate');
    expect(made).toBeLessThan(1000);
    expect(callsPerIteration('terminate', made)).toEqual(Array.from({ length: made }, () => 1));
    expect(counter.count('terminate', 1_000_000)).toBe(0);
    expect(await harness.stack.redis.exists(harness.stack.keys.executionProgress(id))).toBe(0);
  });

  it('stops between iterations at the time limit', { timeout: 60_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    const id = await harness.stack.startRun('Test/CountedLoopLimited', alice, { CounterURL: counter.urlFor('limit'), Count: '1000', WaitMilliseconds: '50' });
    const ended = await harness.stack.waitForEnd(id, alice, 30_000);
    expect(ended.status).toBe('TERMINATED_LIMIT');
    const made = counter.count('limit');
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(1000);
    expect(callsPerIteration('limit', made)).toEqual(Array.from({ length: made }, () => 1));
  });

  it('hands a loop back at shutdown between iterations, and another worker goes on from there', { timeout: 90_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    // The worker killed above is not restarted: one more, so that one is left after the shutdown.
    const fresh = harness.stack.addWorker();
    await waitFor(async () => (await harness.stack.liveWorkers()).some((beat) => beat.pid === fresh.pid), { timeoutMs: 30_000, what: 'the new worker' });
    const id = await harness.stack.startRun('Test/CountedLoop', alice, { CounterURL: counter.urlFor('shutdown'), Count: '40', WaitMilliseconds: '100' });
    await waitFor(() => counter.count('shutdown') >= 3, { timeoutMs: 20_000, what: 'three iterations' });
    const taken = await harness.stack.executions.get(id);
    const holder = harness.stack.workerOn(taken?.host).worker;
    holder.kill('SIGTERM');
    await holder.exited;
    expect(holder.logs()).toMatch(new RegExp(`"executionId":"${id}".*execution handed back`));
    const ended = await harness.stack.waitForEnd(id, alice, 60_000);
    expect(ended.status).toBe('SUCCESS');
    expect(ended.host).not.toBe(taken?.host);
    expect(callsPerIteration('shutdown', 40)).toEqual(Array.from({ length: 40 }, () => 1));
  });
});
