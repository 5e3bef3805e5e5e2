import { waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// Pure steps' results wait for the run's next write, but an HTTP step is written before the next
// step starts: a worker killed in the middle of a loop mixing them leaves no completed call to be
// made again, and the run resumed elsewhere computes the pure steps it lost from what was stored.
describe('loops mixing pure steps and calls: resumed after a crash', () => {
  const harness = useWorkerTestStack({ workers: 2 });
  const { counter } = harness;

  it('sends no completed call twice after a SIGKILL, and its outputs are right', { timeout: 90_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    // The kill lands while iteration 30's call is in flight.
    counter.hold(30);
    const id = await harness.stack.startRun('Test/PureAroundCalls', alice, { CounterURL: counter.urlFor('pure'), Count: '60' });
    await waitFor(() => counter.count('pure', 30) === 1, { timeoutMs: 30_000, what: 'the run to reach iteration 30' });
    const taken = await harness.stack.executions.get(id);
    expect(taken).toMatchObject({ status: 'RUNNING', nextStep: 0 });
    // Before the call, the iteration before it and the pure step of this one were written.
    const progressKey = harness.stack.keys.executionProgress(id);
    expect(await harness.stack.redis.hexists(progressKey, 'each[29]')).toBe(1);
    expect(await harness.stack.redis.hexists(progressKey, 'each[30].label')).toBe(1);
    expect(await harness.stack.redis.hexists(progressKey, 'each[30]')).toBe(0);
    const victim = harness.stack.workerOn(taken?.host).worker;

    victim.kill('SIGKILL');
    await victim.exited;
    counter.release(30);

    const ended = await harness.stack.waitForEnd(id, alice, 60_000);
    expect(ended.status).toBe('SUCCESS');
    expect(ended.host).not.toBe(taken?.host);
    // Only iteration 30's call, the one the kill interrupted, was sent twice.
    expect(Array.from({ length: 60 }, (_, iteration) => counter.count('pure', iteration))).toEqual(
      Array.from({ length: 60 }, (_, iteration) => (iteration === 30 ? 2 : 1)),
    );
    const outputs = await harness.stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice);
    // 10 × (0 + 1 + … + 59)
    expect(outputs.json().output).toMatchObject({ Iterations: '60', Sum: '17700' });
  });

  it('runs a loop of pure steps with calls around it', { timeout: 60_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    const id = await harness.stack.startRun('Test/PureAroundCalls', alice, { CounterURL: counter.urlFor('whole'), Count: '5' });
    const ended = await harness.stack.waitForEnd(id, alice, 30_000);
    expect(ended.status).toBe('SUCCESS');
    expect(counter.count('whole')).toBe(5);
    const history = await harness.stack.call('GET', `/choreo-executions/${id}?view=steps`, alice);
    expect(history.status, history.text).toBe(200);
    // Every step is in the history, in order: the pure ones written with the calls' writes and the end.
    const rows: { address: string; outcome: string }[] = history.json().steps;
    expect(rows.map((row) => `${row.address} ${row.outcome}`)).toEqual(
      Array.from({ length: 5 }, (_, index) => ['label', 'call', 'tenfold'].map((step) => `each[${index}].${step} succeeded`)).flat(),
    );
  });
});
