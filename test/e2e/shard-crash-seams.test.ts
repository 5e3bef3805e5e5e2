import { createExecutionQueues, createScheduleStore, executionShard, jobHolds, tickExecutionId } from '@ces/store';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServiceProcess } from '../support/service-process.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import { useWorkerTestStack } from '../support/worker-test-stack.ts';

const SHARDS = 3;
const QUOTA = 2;

// With shards, an account's limits live in the control slot and its runs on their shards: a
// reservation there and the shard's write are two writes, as a record and its job are. A process
// is held at the seam between them (WORKER_TEST_HOLD_AT, API_TEST_HOLD_AT: the store's seams,
// store-crash-seam.ts) and SIGKILLed there; docs/architecture.md, "Crash seams", says what repairs
// each. One Redis holds the three shards: the seams are the same on a Cluster.
describe('a process killed between the control slot and a shard', () => {
  const receiver = new WebhookReceiver();
  beforeAll(async () => {
    await receiver.start();
  });
  afterAll(async () => receiver.close());
  const harness = useWorkerTestStack({
    workers: 0,
    env: { QUEUE_SHARDS: String(SHARDS), MAX_RUNNING_PER_ACCOUNT: String(QUOTA) },
    workerEnv: { SCHEDULE_LEASE_MS: '2000', SCHEDULE_POLL_MS: '100', WEBHOOK_DISPATCH_POLL_MS: '20' },
  });
  const { counter } = harness;

  /** Waits until `process` says it is held at `seam`, and answers the id it was held for. */
  const heldAt = async (process: ServiceProcess, seam: string) => {
    const line = await waitFor(
      () =>
        process
          .logs()
          .split('\n')
          .find((entry) => entry.includes(`held at the crash seam ${seam}`)),
      {
        timeoutMs: 30_000,
        intervalMs: 50,
        what: `${process.name} to be held at ${seam}`,
      },
    );
    return (JSON.parse(line) as { executionId?: string; id?: string }).executionId ?? (JSON.parse(line) as { id: string }).id;
  };
  const killed = async (process: ServiceProcess) => {
    process.kill('SIGKILL');
    await process.exited;
  };
  const reservedRuns = () => harness.stack.redis.zrange(harness.stack.layout.control.accountReservedRuns('acme'), '0', '-1');
  const long = () => ({ CounterURL: counter.urlFor('long'), WaitMilliseconds: '60000' });
  const terminate = async (ids: readonly string[]) => {
    for (const id of ids) expect((await harness.stack.call('DELETE', `/choreo-executions/${id}`, harness.stack.credentials.alice)).status).toBeLessThan(300);
    for (const id of ids) await harness.stack.waitForEnd(id, harness.stack.credentials.alice, 30_000);
  };

  let queues: ReturnType<typeof createExecutionQueues> | undefined;
  afterAll(async () => queues?.close());
  const jobReleased = async (id: string) => {
    const { stack } = harness;
    queues ??= createExecutionQueues({ connection: stack.redis, layout: stack.layout });
    const [hold] = await jobHolds(stack.redis, queues.of(id), [id]);
    return hold === 'none' || hold === 'completed';
  };

  it('reserved by an API that died before its shard accepted the run: the place is let go a minute on, when the account needs it', {
    timeout: 150_000,
  }, async () => {
    const { stack } = harness;
    const alice = stack.credentials.alice;
    const held = await stack.addApi({ API_TEST_HOLD_AT: 'reserved' });
    const api = stack.apis[held]?.process as ServiceProcess;
    const lost = stack.startRun('Test/Counted', alice, long(), held).catch((error: Error) => error);
    const id = await heldAt(api, 'reserved');
    await killed(api);
    // Its caller had no answer: the run was never accepted, its place is held all the same.
    expect(await lost).toBeInstanceOf(Error);
    expect(await reservedRuns()).toEqual([id]);
    expect(await stack.executions.get(id)).toBeUndefined();

    const worker = stack.addWorker();
    try {
      const first = await stack.startRun('Test/Counted', alice, long());
      const body = JSON.stringify({ inputs: Object.entries(long()).map(([name, value]) => ({ name, value })) });
      expect((await stack.call('POST', '/choreos/Test/Counted?mode=async', alice, { body })).status).toBe(429);
      // A reservation whose record no shard holds a minute after is let go by the next start refused.
      const second = await waitFor(
        async () => {
          const answer = await stack.call('POST', '/choreos/Test/Counted?mode=async', alice, { body });
          if (answer.status === 429) return undefined;
          expect(answer.status, answer.text).toBe(202);
          return answer.json().id as string;
        },
        { timeoutMs: 100_000, intervalMs: 1_000, what: 'the abandoned reservation to be let go' },
      );
      expect((await reservedRuns()).sort()).toEqual([first, second].sort());
      await terminate([first, second]);
      expect(await reservedRuns()).toEqual([]);
    } finally {
      await worker.stop();
    }
  });

  it("reserved by a worker firing a tick, its shard's accept not made: the next firer starts the tick's run, once", { timeout: 120_000 }, async () => {
    const { stack } = harness;
    const schedules = createScheduleStore({ redis: stack.redis, keys: stack.keys });
    const held = stack.addWorker({ WORKER_TEST_HOLD_AT: 'reserved' });
    await stack.waitForWorkers(1);
    const spec = {
      choreo: '/Test/Counted',
      inputs: [
        { name: 'CounterURL', value: counter.urlFor('tick') },
        { name: 'WaitMilliseconds', value: '0' },
      ],
      timing: { everyMs: 60_000 },
      overlap: 'allow-all' as const,
      catchupWindowSeconds: 3_600,
    };
    // Its first tick is due at once: the held worker fires it, and is held after reserving its run.
    const { schedule } = await schedules.put('acme', 'seam', spec, { now: Date.now() - 60_000, paused: false });
    const id = await heldAt(held, 'reserved');
    expect(id).toBe(tickExecutionId('acme', 'seam', schedule.cursor, stack.layout.shardsAt(schedule.cursor)));
    await killed(held);
    expect(await stack.executions.get(id)).toBeUndefined();

    // The next firer, once the tick's lease lapses, fires it again: the reservation is the same run's.
    const rescuer = stack.addWorker();
    try {
      expect((await stack.waitForEnd(id, stack.credentials.alice, 60_000)).status).toBe('SUCCESS');
      expect(counter.stepsOf('tick')).toEqual([0, 2, 4, 6]);
      await waitFor(async () => !(await reservedRuns()).includes(id), { timeoutMs: 10_000, what: "the tick's run to let its place go" });
      expect((await schedules.get('acme', 'seam'))?.fired).toBe(1);
    } finally {
      await schedules.delete('acme', 'seam');
      await rescuer.stop();
    }
  });

  it('a place among the executing reserved, the take not made: the run is taken again and ends, each step once', { timeout: 120_000 }, async () => {
    const { stack } = harness;
    const alice = stack.credentials.alice;
    const executing = { MAX_EXECUTING_PER_ACCOUNT: '1' };
    const held = stack.addWorker({ ...executing, WORKER_TEST_HOLD_AT: 'executing-reserved' });
    await stack.waitForWorkers(1);
    const id = await stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor('executing'), WaitMilliseconds: '100' });
    expect(await heldAt(held, 'executing-reserved')).toBe(id);
    await killed(held);

    const rescuer = stack.addWorker(executing);
    try {
      // Its job's lock lapses; the rescuer's take finds its place reserved already, and keeps it.
      expect((await stack.waitForEnd(id, alice, 90_000)).status, stack.logs()).toBe('SUCCESS');
      expect(counter.stepsOf('executing')).toEqual([0, 2, 4, 6]);
      // Let go at the end: the account's next run is taken too.
      const next = await stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor('executing-next'), WaitMilliseconds: '0' });
      expect((await stack.waitForEnd(next, alice, 30_000)).status).toBe('SUCCESS');
      expect(await stack.redis.zcard(stack.layout.control.accountReservedExecuting('acme'))).toBe(0);
    } finally {
      await rescuer.stop();
    }
  });

  it('ended on its shard, the reservation not let go: the account is not refused for it, and the end counts once', { timeout: 120_000 }, async () => {
    const { stack } = harness;
    const alice = stack.credentials.alice;
    const held = stack.addWorker({ WORKER_TEST_HOLD_AT: 'ended-unreleased' });
    await stack.waitForWorkers(1);
    const succeeded = async () => (await stack.executions.counts()).ended.SUCCESS;
    const before = await succeeded();
    const id = await stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor('ended'), WaitMilliseconds: '0' });
    expect(await heldAt(held, 'ended-unreleased')).toBe(id);
    await killed(held);
    expect((await stack.executions.get(id))?.status).toBe('SUCCESS');
    expect(await reservedRuns()).toEqual([id]);

    // The account's quota is two: its next two runs are accepted, the ended run's place let go for them.
    const runs = [await stack.startRun('Test/Counted', alice, long()), await stack.startRun('Test/Counted', alice, long())];
    expect((await reservedRuns()).sort()).toEqual([...runs].sort());
    const rescuer = stack.addWorker();
    try {
      // The held run's job, still active, is completed without a step; its end is not counted again.
      await waitFor(() => jobReleased(id), { timeoutMs: 90_000, intervalMs: 200, what: "the ended run's job completed" });
      expect(counter.stepsOf('ended')).toEqual([0, 2, 4, 6]);
      expect((await succeeded()) - before).toBe(1);
      await terminate(runs);
    } finally {
      await rescuer.stop();
    }
  });

  it("a subscription written by an API that died before copying it to the shards: the next API's start copies it, and runs on every shard are delivered", {
    timeout: 120_000,
  }, async () => {
    const { stack } = harness;
    const alice = stack.credentials.alice;
    const held = await stack.addApi({ API_TEST_HOLD_AT: 'subscription-written' });
    const api = stack.apis[held]?.process as ServiceProcess;
    const put = stack
      .call('PUT', '/webhooks/seam', alice, { via: held, body: JSON.stringify({ url: receiver.url('/seam'), events: ['execution.ended'] }) })
      .catch((error: Error) => error);
    await heldAt(api, 'subscription-written');
    await killed(api);
    expect(await put).toBeInstanceOf(Error);
    // Written in the control slot (shard 0's), not yet on the other shards.
    for (const shard of stack.layout.shards.slice(1)) expect(await stack.redis.exists(shard.keys.accountWebhookEvents('acme'))).toBe(0);

    await stack.addApi();
    for (const shard of stack.layout.shards.slice(1)) expect(await stack.redis.exists(shard.keys.accountWebhookEvents('acme'))).toBe(1);
    const worker = stack.addWorker({ NODE_EXTRA_CA_CERTS: receiver.certFile });
    try {
      const ids: string[] = [];
      while (new Set(ids.map(executionShard)).size < SHARDS) {
        const id = await stack.startRun('Test/Counted', alice, { CounterURL: counter.urlFor(`hook${ids.length}`), WaitMilliseconds: '0' });
        expect((await stack.waitForEnd(id, alice, 30_000)).status).toBe('SUCCESS');
        ids.push(id);
        expect(ids.length).toBeLessThan(30);
      }
      await waitFor(() => ids.every((id) => receiver.at('/seam').some((delivery) => delivery.body.includes(id))), {
        timeoutMs: 30_000,
        what: 'a delivery of every run',
      });
    } finally {
      await worker.stop();
    }
  });
});
