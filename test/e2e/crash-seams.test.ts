import { createExecutionQueue, jobHolds } from '@ces/store';
import { waitFor } from '@ces/testing';
import { afterAll, describe, expect, it } from 'vitest';
import type { ServiceProcess } from '../support/service-process.ts';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// Each transition of a run writes the record (our script) and the job (BullMQ) one after the
// other. A worker is held at the seam between the two (WORKER_TEST_HOLD_AT, a test-only hook) and
// SIGKILLed there; another worker must finish the run with every completed step run once, and the
// end recorded once. docs/architecture.md, "Crash seams", lists what repairs each.
describe('a worker killed between the two writes of a transition', () => {
  // No worker of the stack's own: each case starts the one it holds, then the one that rescues.
  const harness = useWorkerTestStack({ workers: 0 });
  const { counter } = harness;

  const heldAt = async (worker: ServiceProcess, seam: string) =>
    waitFor(() => worker.logs().includes(`held at the crash seam ${seam}`), { timeoutMs: 30_000, intervalMs: 50, what: `the worker to be held at ${seam}` });

  // The job's side of each transition: done once no job holds the run (completed jobs are removed).
  let queue: ReturnType<typeof createExecutionQueue> | undefined;
  afterAll(async () => queue?.close());
  const jobReleased = async (id: string) => {
    queue ??= createExecutionQueue({ connection: harness.stack.redis, keys: harness.stack.keys });
    const [hold] = await jobHolds(harness.stack.redis, queue, [id]);
    return hold === 'none' || hold === 'completed';
  };

  /** Another worker takes the run over and ends it: SUCCESS, each step called once, its job released. */
  const rescue = async (id: string, tag: string) => {
    const { stack } = harness;
    const rescuer = stack.addWorker();
    try {
      const ended = await stack.waitForEnd(id, stack.credentials.alice, 90_000);
      expect(ended.status, stack.logs()).toBe('SUCCESS');
      expect(counter.stepsOf(tag)).toEqual([0, 2, 4, 6]);
      await waitFor(() => jobReleased(id), { timeoutMs: 60_000, intervalMs: 100, what: "the run's job completed" });
      return ended;
    } finally {
      await rescuer.stop();
    }
  };

  const endedCount = async () => Number((await harness.stack.redis.hget(harness.stack.keys.executionCounts(), 'ended:SUCCESS')) ?? 0);

  it.each([
    // The take is stored, its job active; no step has run.
    'taken',
    // call0 is checkpointed; call2 has not started.
    'checkpointed',
    // The run ended SUCCESS in Redis; its job was never completed.
    'ended',
  ])('%s: the run ends SUCCESS on another worker, each completed step run once, its end counted once', { timeout: 120_000 }, async (seam) => {
    const { stack } = harness;
    const alice = stack.credentials.alice;
    const held = stack.addWorker({ WORKER_TEST_HOLD_AT: seam });
    await stack.waitForWorkers(1);
    const endsBefore = await endedCount();
    const id = await stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor(seam), WaitMilliseconds: '100' });
    await heldAt(held, seam);
    held.kill('SIGKILL');
    await held.exited;

    const ended = await rescue(id, seam);
    // The end the held worker stored is the one that counts: the rescuer completes the job only.
    expect(await stack.redis.zscore(stack.keys.running(), id)).toBeNull();
    expect((await endedCount()) - endsBefore).toBe(1);
    // addWorker numbers the hosts: the end the held worker stored names it.
    if (seam === 'ended') expect(ended.host).toBe(`10.0.0.${stack.workers.indexOf(held) + 1}`);
  });

  it('handed-back: a run handed back at shutdown whose job was not put back is resumed, no step run twice', { timeout: 120_000 }, async () => {
    const { stack } = harness;
    const alice = stack.credentials.alice;
    const held = stack.addWorker({ WORKER_TEST_HOLD_AT: 'handed-back' });
    await stack.waitForWorkers(1);
    const id = await stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor('handed-back'), WaitMilliseconds: '1500' });
    await waitFor(() => counter.count('handed-back', 0) === 1, { timeoutMs: 20_000, what: 'the first call' });
    // SIGTERM: the worker hands the run back at its next step boundary, and is held there.
    held.kill('SIGTERM');
    await heldAt(held, 'handed-back');
    held.kill('SIGKILL');
    await held.exited;

    await rescue(id, 'handed-back');
  });
});
