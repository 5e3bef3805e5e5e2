import { must, waitFor } from '@ces/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// Runs are started through one API process and terminated through another: the flag lives in
// Redis, so whichever instance receives the DELETE, the worker sees it.
describe('termination requested through another API process', () => {
  // One run at a time, so that a second run waits in the queue.
  const harness = useWorkerTestStack({ workers: 1, workerEnv: { WORKER_CONCURRENCY: '1' } });
  const { counter } = harness;
  let second = 0;

  beforeAll(async () => {
    second = await harness.stack.addApi();
  });

  const outputsOf = async (id: string) => (await harness.stack.call('GET', `/choreo-executions/${id}?view=outputs`, harness.stack.credentials.alice)).json();

  it('ends a run right after its current step, keeping the outputs so far', async () => {
    const alice = harness.stack.credentials.alice;
    counter.hold(2);
    const id = await harness.stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor('terminate'), WaitMilliseconds: '10' });
    await waitFor(() => counter.count('terminate', 2) === 1, { timeoutMs: 20_000, what: 'the run to reach call2' });

    const deleted = await harness.stack.call('DELETE', `/choreo-executions/${id}`, alice, { via: second });
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    // The HTTP step in flight is not cut short: the run is still going until it answers.
    expect((await harness.stack.call('GET', `/choreo-executions/${id}`, alice)).json().execution.status).toBe('RUNNING');
    // A second DELETE while it stops is fine too.
    expect((await harness.stack.call('DELETE', `/choreo-executions/${id}`, alice, { via: second })).status).toBe(204);
    counter.release(2);

    const ended = await harness.stack.waitForEnd(id, alice);
    expect(ended.status).toBe('TERMINATED_MANUALLY');
    const { output } = await outputsOf(id);
    expect(output).toEqual({ CompletedSteps: '3', Third: '{"step":2}' });
    expect(counter.stepsOf('terminate')).toEqual([0, 2]);
    // Terminal is final: terminating again is idempotent, and the status never changes.
    expect((await harness.stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBe(204);
    expect((await harness.stack.call('GET', `/choreo-executions/${id}`, alice, { via: second })).json().execution.status).toBe('TERMINATED_MANUALLY');
  });

  it('interrupts a wait at once, and takes a queued run out of the queue', async () => {
    const alice = harness.stack.credentials.alice;
    const running = await harness.stack.startRun('Test/Waits', alice, { StepMilliseconds: '2000' });
    await waitFor(async () => (await harness.stack.executions.get(running))?.nextStep === 1, { timeoutMs: 20_000, what: 'the first wait to complete' });

    // The only worker is busy: this one waits in the queue, RUNNING with no host.
    const queued = await harness.stack.startRun('Test/Waits', alice, { StepMilliseconds: '10' }, second);
    const waiting = await harness.stack.call('GET', `/choreo-executions/${queued}`, alice);
    expect(waiting.json().execution).toMatchObject({ status: 'RUNNING', host: '' });
    expect(await harness.stack.redis.exists(`${harness.stack.prefix}:executions:${queued}`)).toBe(1);

    expect((await harness.stack.call('DELETE', `/choreo-executions/${queued}`, alice, { via: second })).status).toBe(204);
    // Ended at once, by the DELETE itself, and its job is gone from the queue.
    const gone = await harness.stack.call('GET', `/choreo-executions/${queued}`, alice);
    expect(gone.json().execution).toMatchObject({ status: 'TERMINATED_MANUALLY', host: '' });
    expect(await harness.stack.redis.exists(`${harness.stack.prefix}:executions:${queued}`)).toBe(0);

    expect((await harness.stack.call('DELETE', `/choreo-executions/${running}`, alice, { via: second })).status).toBe(204);
    const ended = await harness.stack.waitForEnd(running, alice);
    expect(ended.status).toBe('TERMINATED_MANUALLY');
    // The wait in progress was interrupted: the run did not go on to the next step.
    const completed = Number((await outputsOf(running)).output.CompletedSteps);
    expect(completed).toBeGreaterThanOrEqual(1);
    expect(completed).toBeLessThan(10);
    expect(completed).toBe(must(await harness.stack.executions.get(running)).nextStep);
  });

  it('ends every run with exactly one terminal status when DELETE races its completion', { timeout: 60_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const id = await harness.stack.startRun('Test/Quick', alice, {}, i % 2);
        const deleted = await harness.stack.call('DELETE', `/choreo-executions/${id}`, alice, { via: 1 - (i % 2) });
        return { id, deleted: deleted.status };
      }),
    );
    for (const { id, deleted } of outcomes) {
      const ended = await harness.stack.waitForEnd(id, alice);
      // 204 promised a termination; 409 said it had already succeeded. Either way, it stays so.
      expect([204, 409]).toContain(deleted);
      expect(ended.status).toBe(deleted === 204 ? 'TERMINATED_MANUALLY' : 'SUCCESS');
    }
    // Read once more after every run has ended: nothing was overwritten.
    for (const { id, deleted } of outcomes) {
      const again = await harness.stack.call('GET', `/choreo-executions/${id}`, alice, { via: second });
      expect(again.json().execution.status).toBe(deleted === 204 ? 'TERMINATED_MANUALLY' : 'SUCCESS');
    }
  });
});
