import { EXECUTION_QUEUE } from '@ces/store';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { StepCounter } from '../support/step-counter.ts';
import { writeWorkerTestCatalogue } from '../support/worker-test-catalogue.ts';

// Waits of a second or more are durable here. Each wait outlasts the recovery it tests (a stall
// check, a reconciler pass: seconds), so that the recovered run is taken before it is due and must
// be suspended again until then rather than woken early.
const DURABLE_FROM = { DURABLE_WAIT_THRESHOLD_MS: '1000' };
const WAIT_MS = 25_000;

/** A stack of one worker, a counter of the calls made before and after each run's wait, and what to look at in Redis. */
function waitingStack(workerEnv: Record<string, string> = {}) {
  const catalogue = writeWorkerTestCatalogue();
  const counter = new StepCounter();
  const context = {
    stack: undefined as Stack | undefined,
    counter,
    get: () => {
      if (context.stack === undefined) throw new Error('the stack has not started');
      return context.stack;
    },
  };
  beforeAll(async () => {
    await counter.start();
    context.stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, choreosDir: catalogue.dir, workerEnv: { ...DURABLE_FROM, ...workerEnv } });
  });
  afterAll(async () => {
    await context.stack?.stop();
    await counter.close();
    catalogue.remove();
  });
  return context;
}

/** When the run is due by the waiting set (its score), or undefined while it is not there. */
async function dueTime(stack: Stack, id: string): Promise<number | undefined> {
  const score = await stack.redis.zscore(stack.keys.waiting(), id);
  return score === null ? undefined : Number(score);
}

const jobKey = (stack: Stack, name: string) => `${stack.prefix}:${EXECUTION_QUEUE}:${name}`;
const isDelayed = async (stack: Stack, id: string) => (await stack.redis.zscore(jobKey(stack, 'delayed'), id)) !== null;
const isActive = async (stack: Stack, id: string) => (await stack.redis.lpos(jobKey(stack, 'active'), id)) !== null;

/** The run ended SUCCESS having made the call before its wait and the call after it once each, the latter not before `due`. */
async function expectWokeOnceWhenDue(stack: Stack, counter: StepCounter, tag: string, id: string, due: number) {
  expect((await stack.waitForEnd(id, stack.credentials.alice, 60_000)).status, stack.logs()).toBe('SUCCESS');
  expect(counter.stepsOf(tag)).toEqual([0, 2]);
  expect(counter.firstCallAt(tag, 2)).toBeGreaterThanOrEqual(due);
  expect(await dueTime(stack, id)).toBeUndefined();
}

describe('a worker killed between storing a suspension and moving its job among the delayed ones', () => {
  // The worker stops for good at that point (a test-only hook), to be killed there.
  const context = waitingStack({ WORKER_TEST_HOLD_AT: 'suspended' });

  it('loses no run: taken again before it is due, it waits until the same due time, and wakes once', { timeout: 120_000 }, async () => {
    const stack = context.get();
    const id = await stack.startRun('Test/CountedWait', stack.credentials.alice, {
      CounterURL: context.counter.urlFor('held'),
      WaitMilliseconds: String(WAIT_MS),
    });
    // The window: the suspension is stored (the run is in the waiting set), its job still active.
    const due = await waitFor(async () => ((await isActive(stack, id)) ? await dueTime(stack, id) : undefined), {
      timeoutMs: 30_000,
      what: 'the run to be suspended with its job still active',
    });
    expect(await isDelayed(stack, id)).toBe(false);
    const [held] = stack.workers;
    held?.kill('SIGKILL');
    await held?.exited;

    stack.addWorker({ WORKER_TEST_HOLD_AT: '' });
    // The stall check puts the job back, and the take finds the wait not due yet: suspended again.
    await waitFor(async () => isDelayed(stack, id), { timeoutMs: 40_000, what: 'the run to be suspended again by another worker' });
    expect(Date.now()).toBeLessThan(due);
    expect(await dueTime(stack, id)).toBe(due);
    expect(context.counter.stepsOf('held')).toEqual([0]);

    await expectWokeOnceWhenDue(stack, context.counter, 'held', id, due);
  });
});

describe('a DELETE while a worker holds the job of the run it has just suspended', () => {
  // The worker stops for good there (a test-only hook), still holding the job.
  const context = waitingStack({ WORKER_TEST_HOLD_AT: 'suspended' });

  it('ends the run at once, and the job left behind is dropped by the take that follows', { timeout: 120_000 }, async () => {
    const stack = context.get();
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/CountedWait', alice, { CounterURL: context.counter.urlFor('deleted'), WaitMilliseconds: String(WAIT_MS) });
    await waitFor(async () => (await isActive(stack, id)) && (await dueTime(stack, id)) !== undefined, {
      timeoutMs: 30_000,
      what: 'the run to be suspended with its job still active',
    });

    expect((await stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBe(204);
    // No worker holds the run, though one holds its job: the DELETE itself ended it.
    expect((await stack.call('GET', `/choreo-executions/${id}`, alice)).json().execution).toMatchObject({ status: 'TERMINATED_MANUALLY', host: '' });
    expect(await dueTime(stack, id)).toBeUndefined();
    expect(await isActive(stack, id)).toBe(true);

    // The holding worker dies; the stall check gives the job to another worker, whose take finds the
    // run ended and completes the job without running a step.
    const [held] = stack.workers;
    held?.kill('SIGKILL');
    await held?.exited;
    stack.addWorker({ WORKER_TEST_HOLD_AT: '' });
    await waitFor(async () => (await stack.redis.exists(jobKey(stack, id))) === 0, { timeoutMs: 40_000, what: 'the job to be dropped' });
    expect((await stack.call('GET', `/choreo-executions/${id}`, alice)).json().execution.status).toBe('TERMINATED_MANUALLY');
    expect(context.counter.stepsOf('deleted')).toEqual([0]);
  });
});

describe('a waiting run whose job was lost', () => {
  const context = waitingStack();

  it('is queued again by the reconciler, waits until the same due time, and wakes once', { timeout: 120_000 }, async () => {
    const stack = context.get();
    const id = await stack.startRun('Test/CountedWait', stack.credentials.alice, {
      CounterURL: context.counter.urlFor('lost'),
      WaitMilliseconds: String(WAIT_MS),
    });
    const due = await waitFor(async () => ((await isDelayed(stack, id)) ? await dueTime(stack, id) : undefined), {
      timeoutMs: 30_000,
      what: 'the run to be suspended',
    });

    // Its job is gone (a Redis that came back without it, say), and the run is made older than the
    // reconciler's grace (a run younger than that may still be on its way into the queue).
    const aged = Date.now() - 60_000;
    await stack.redis
      .multi()
      .del(jobKey(stack, id))
      .zrem(jobKey(stack, 'delayed'), id)
      .zadd(stack.keys.running(), aged, id)
      .hset(stack.keys.execution(id), 'starttime', String(aged))
      .exec();

    // Queued again, then taken before it is due: suspended again until the same time.
    await waitFor(async () => isDelayed(stack, id), { timeoutMs: 40_000, what: 'the reconciler to queue the run again and a worker to suspend it' });
    expect(Date.now()).toBeLessThan(due);
    expect(await dueTime(stack, id)).toBe(due);
    expect(context.counter.stepsOf('lost')).toEqual([0]);

    await expectWokeOnceWhenDue(stack, context.counter, 'lost', id, due);
  });
});
