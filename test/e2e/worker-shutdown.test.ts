import { must, waitFor } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

// A deploy: every worker gets SIGTERM in turn while long runs are going on; none may be lost.
describe('graceful shutdown: a rolling restart of every worker', () => {
  const harness = useWorkerTestStack({
    workers: 2,
    // Three runs per worker, so that both old workers hold runs when they are stopped.
    workerEnv: { WORKER_CONCURRENCY: '3', WORKER_SHUTDOWN_GRACE_SECONDS: '20' },
  });
  const { counter } = harness;

  it('hands unfinished runs back on SIGTERM; they finish on the new workers, each step run once', { timeout: 120_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    const tags = Array.from({ length: 6 }, (_, i) => `run${i}`);
    const ids = await Promise.all(
      tags.map((tag) => harness.stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor(tag), WaitMilliseconds: '4000' })),
    );
    await waitFor(
      async () => {
        const records = await Promise.all(ids.map((id) => harness.stack.executions.get(id)));
        const hosts = new Set(records.map((record) => record?.host));
        return hosts.has('10.0.0.1') && hosts.has('10.0.0.2') && !hosts.has('');
      },
      { timeoutMs: 20_000, what: 'both workers to hold runs' },
    );

    // The new workers come up first, then the old ones are stopped one after the other.
    const fresh = [harness.stack.addWorker(), harness.stack.addWorker()];
    await waitFor(
      async () => {
        const pids = (await harness.stack.liveWorkers()).map((beat) => beat.pid);
        return fresh.every((worker) => pids.includes(worker.pid));
      },
      { timeoutMs: 30_000, intervalMs: 100, what: 'the new workers to start' },
    );
    for (const old of [must(harness.stack.workers[0]), must(harness.stack.workers[1])]) {
      old.kill('SIGTERM');
      await old.exited;
      expect(old.child.exitCode, old.logs()).toBe(0);
      expect(old.logs()).toContain('execution handed back');
      // A clean exit removes the heartbeat record at once.
      expect((await harness.stack.liveWorkers()).some((beat) => beat.pid === old.pid)).toBe(false);
    }

    for (const id of ids) {
      const ended = await harness.stack.waitForEnd(id, alice, 60_000);
      expect(ended.status, harness.stack.logs()).toBe('SUCCESS');
      expect(['10.0.0.3', '10.0.0.4']).toContain(ended.host);
    }
    // Handed back at step boundaries: not even the step in progress ran twice.
    for (const tag of tags) expect(counter.stepsOf(tag), tag).toEqual([0, 2, 4, 6]);
    expect((await harness.stack.call('GET', '/choreo-executions', alice)).json().executions).toEqual([]);
  });

  it('answers a handed-back run as queued (host "") until another worker takes it', { timeout: 60_000 }, async () => {
    const alice = harness.stack.credentials.alice;
    counter.hold(2);
    const id = await harness.stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor('alone'), WaitMilliseconds: '10' });
    await waitFor(() => counter.count('alone', 2) === 1, { timeoutMs: 20_000, what: 'the run to reach call2' });
    const index =
      Number(
        must(await harness.stack.executions.get(id))
          .host.split('.')
          .at(-1),
      ) - 1;
    const holder = must(harness.stack.workers[index]);
    const other = must(harness.stack.workers.find((worker, i) => i !== index && worker.running));
    // Leave only the holder, then stop it mid-step: the step ends, and the run goes back to the queue.
    other.kill('SIGTERM');
    await other.exited;
    holder.kill('SIGTERM');
    await waitFor(() => holder.logs().includes('worker stopping'), { what: 'the holder to begin its shutdown' });
    counter.release(2);
    await holder.exited;
    expect(holder.child.exitCode).toBe(0);
    const queued = await harness.stack.call('GET', `/choreo-executions/${id}`, alice);
    expect(queued.json().execution).toMatchObject({ status: 'RUNNING', host: '' });
    expect(must(await harness.stack.executions.get(id)).nextStep).toBe(3);

    harness.stack.addWorker();
    const ended = await harness.stack.waitForEnd(id, alice, 30_000);
    expect(ended).toMatchObject({ status: 'SUCCESS', host: '10.0.0.5' });
    expect(counter.stepsOf('alone')).toEqual([0, 2, 4, 6]);
  });
});
