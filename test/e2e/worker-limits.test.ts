import { must, waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

describe('limits: time limit, step timeout and retries', () => {
  const harness = useWorkerTestStack({ workers: 1 });
  const { counter } = harness;

  const outputsOf = async (id: string) => (await harness.stack.call('GET', `/choreo-executions/${id}?view=outputs`, harness.stack.credentials.alice)).json();

  it('stops a run past its time limit as TERMINATED_LIMIT, interrupting a wait', async () => {
    const alice = harness.stack.credentials.alice;
    const id = await harness.stack.startRun('Test/Limited', alice, { StepMilliseconds: '400' });
    const ended = await harness.stack.waitForEnd(id, alice);
    expect(ended.status).toBe('TERMINATED_LIMIT');
    const completed = Number((await outputsOf(id)).output.CompletedSteps);
    expect(completed).toBeGreaterThanOrEqual(1);
    expect(completed).toBeLessThan(10);
  });

  it('lets the step in progress at the time limit finish, then stops', async () => {
    const alice = harness.stack.credentials.alice;
    counter.hold(0);
    const id = await harness.stack.startRun('Test/LimitedCalls', alice, { CounterURL: counter.urlFor('limit') });
    await waitFor(() => counter.count('limit', 0) === 1, { what: 'the run to reach call0' });
    // The subject is what happens once the limit has passed with a step in flight, so the wait is
    // for the clock itself: until the run's own deadline is behind us.
    const { starttime, deadline } = must(await harness.stack.executions.get(id));
    expect(deadline - starttime).toBe(1_000);
    await waitFor(() => Date.now() > deadline, { what: 'the time limit to pass' });
    expect(must(await harness.stack.executions.get(id)).status).toBe('RUNNING');
    counter.release(0);

    const ended = await harness.stack.waitForEnd(id, alice);
    expect(ended.status).toBe('TERMINATED_LIMIT');
    expect((await outputsOf(id)).output).toEqual({ CompletedSteps: '1', First: '{"step":0}' });
    expect(counter.stepsOf('limit')).toEqual([0]);
  });

  it('times a hanging step out, retries it, then ends the run as ERROR with lasterror', async () => {
    const alice = harness.stack.credentials.alice;
    const id = await harness.stack.startRun('Test/TimedOut', alice, { CounterURL: counter.urlFor('hang') });
    const ended = await harness.stack.waitForEnd(id, alice);
    expect(ended.status).toBe('ERROR');
    expect(ended.lasterror).toMatch(/^hang: .*timed out after 300 ms/);
    expect(Number(ended.errortime)).toBeGreaterThanOrEqual(Number(ended.starttime));
    // The first step ran once; the hanging one was attempted three times.
    expect(counter.stepsOf('hang')).toEqual([0, -1, -1, -1]);
    expect((await outputsOf(id)).output).toEqual({ CompletedSteps: '1' });
  });

  it('retries a step whose connection drops, and succeeds', async () => {
    const res = await harness.stack.call('POST', '/choreos/Test/Flaky', harness.stack.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'CounterURL', value: counter.urlFor('flaky') }] }),
    });
    expect(res.status, res.text).toBe(200);
    expect(res.json()).toMatchObject({ execution: { status: 'SUCCESS' }, output: { Answer: '{"attempt":3}' } });
    expect(counter.count('flaky')).toBe(3);
  });
});
