import { createDefinitionStore } from '@ces/store';
import { must, newExecutionFixture, waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// A worker that dies mid-run (SIGKILL: no hand-back, no goodbye) must cost nothing but time.
describe('worker crash: resume on another worker', () => {
  const harness = useWorkerTestStack({ workers: 2 });
  const { counter } = harness;

  it('resumes a SIGKILLed run after its last completed step, on another host, without repeating a completed step', { timeout: 90_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    // The kill lands while call2 is in flight: call0 and wait1 are completed and checkpointed.
    counter.hold(2);
    const id = await harness.stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor('kill'), WaitMilliseconds: '300' });
    await waitFor(() => counter.count('kill', 2) === 1, { timeoutMs: 20_000, what: 'the run to reach call2' });
    const taken = must(await harness.stack.executions.get(id));
    expect(taken).toMatchObject({ status: 'RUNNING', nextStep: 2 });
    const { worker: victim, index: victimIndex } = harness.stack.workerOn(taken.host);
    const survivor = must(harness.stack.workers[1 - victimIndex]);

    // The worker's heartbeat record says who it is and what it runs.
    const victimBeat = await waitFor(async () => (await harness.stack.liveWorkers()).find((beat) => beat.pid === victim.pid && beat.active.includes(id)), {
      timeoutMs: 15_000,
      intervalMs: 200,
      what: "the victim's heartbeat to list the run",
    });
    expect(victimBeat).toMatchObject({ host: taken.host, concurrency: 8, active: [id], version: expect.any(String) });
    for (const field of ['id', 'processed', 'failed', 'started', 'lastSeen'] as const) expect(victimBeat).toHaveProperty(field);

    victim.kill('SIGKILL');
    await victim.exited;
    counter.release(2);

    const ended = await harness.stack.waitForEnd(id, alice, 60_000);
    expect(ended.status).toBe('SUCCESS');
    expect(ended.host).toBe(`10.0.0.${2 - victimIndex}`);
    // The completed call0 ran once; only call2, the step the kill interrupted, ran again.
    expect(counter.stepsOf('kill')).toEqual([0, 2, 2, 4, 6]);
    // Logs are written in batches: the line may still be on its way.
    await waitFor(() => new RegExp(`"executionId":"${id}".*"resumeAt":2`).test(survivor.logs()), { what: 'the resume logged' });

    const outputs = await harness.stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice);
    expect(outputs.json().output).toMatchObject({ CompletedSteps: '7', Third: '{"step":2}', Last: '{"step":6}' });

    // The dead worker's heartbeat record expires by itself; the survivor's stays.
    await waitFor(async () => !(await harness.stack.liveWorkers()).some((beat) => beat.pid === victim.pid), {
      timeoutMs: 30_000,
      intervalMs: 250,
      what: "the killed worker's heartbeat to expire",
    });
    expect((await harness.stack.liveWorkers()).map((beat) => beat.pid)).toContain(survivor.pid);
  });

  it('queues again a RUNNING execution that has no job, and it completes', { timeout: 60_000 }, async () => {
    // What an API that died between recording a run and queueing it leaves behind.
    const definition = {
      description: 'One step.',
      inputs: {},
      outputs: { CompletedSteps: { description: 'Steps.', type: 'STRING_VARIABLE', value: '{{run.completedSteps}}' } },
      steps: [{ id: 'nothing', kind: 'noop', args: {} }],
    };
    const digest = 'orphan-test-definition';
    await createDefinitionStore({ redis: harness.stack.redis, keys: harness.stack.keys }).save(digest, definition);
    const id = 'feedfacefeedfacefeedfacefeedface';
    const starttime = Date.now() - 60_000;
    const created = await harness.stack.executions.accept(newExecutionFixture({ id, starttime, definitionDigest: digest, deadline: Date.now() + 600_000 }), {
      maxRunningPerAccount: 0,
    });
    expect(created).toEqual({ outcome: 'accepted' });

    const ended = await harness.stack.waitForEnd(id, harness.stack.credentials.alice, 45_000);
    expect(ended.status).toBe('SUCCESS');
    expect(ended.host).toMatch(/^10\.0\.0\.\d$/);
    await waitFor(() => harness.stack.logs().includes('running execution had no job; queued it again'), { what: 'the requeue logged' });
  });
});
