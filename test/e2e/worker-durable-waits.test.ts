import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findFreePort, startLocalRedis, type LocalRedis } from '@ces/local-runtime';
import { EXECUTION_QUEUE } from '@ces/store';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { StepCounter } from '../support/step-counter.ts';
import { writeWorkerTestCatalogue } from '../support/worker-test-catalogue.ts';

// Waits of a second or more are durable here (DURABLE_WAIT_THRESHOLD_MS), so that the tests need
// not wait the default 5 s for each.
const DURABLE_FROM = { DURABLE_WAIT_THRESHOLD_MS: '1000' };

describe('durable waits', () => {
  const catalogue = writeWorkerTestCatalogue();
  const counter = new StepCounter();
  let stack: Stack;

  beforeAll(async () => {
    await counter.start();
    // Two workers with two slots each: far fewer slots than runs waiting.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 2, choreosDir: catalogue.dir, workerEnv: { ...DURABLE_FROM, WORKER_CONCURRENCY: '2' } });
  });

  afterAll(async () => {
    await stack?.stop();
    await counter.close();
    catalogue.remove();
  });

  const waitingCount = () => stack.redis.zcard(`${stack.prefix}:waiting`);
  const isWaiting = async (id: string) => (await stack.redis.zscore(`${stack.prefix}:waiting`, id)) !== null;
  const isDelayed = async (id: string) => (await stack.redis.zscore(`${stack.prefix}:${EXECUTION_QUEUE}:delayed`, id)) !== null;

  /** Every call of `tag` once, and the call after the wait no earlier than the wait's end. */
  function expectRanOnceAfterTheWait(tag: string, waitMs: number) {
    expect(counter.stepsOf(tag)).toEqual([0, 2]);
    const before = counter.firstCallAt(tag, 0) ?? Number.NaN;
    const after = counter.firstCallAt(tag, 2) ?? Number.NaN;
    expect(after - before).toBeGreaterThanOrEqual(waitMs);
  }

  it('holds no slot while many runs wait: short runs keep flowing, and every wait ends when due', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    // Longer than a worker's heartbeat interval, so that a heartbeat written while they all wait
    // can be read before they wake.
    const waitMs = 10_000;
    const ids = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        stack.startRun('Test/CountedWait', alice, { CounterURL: counter.urlFor(`many${i}`), WaitMilliseconds: String(waitMs) }),
      ),
    );
    await waitFor(async () => (await Promise.all(ids.map(isWaiting))).every(Boolean) && (await Promise.all(ids.map(isDelayed))).every(Boolean), {
      timeoutMs: 30_000,
      what: 'every run to be suspended',
    });
    const allSuspendedAt = Date.now();

    // Twelve runs wait on four slots, and a synchronous run is answered all the same.
    const quick = await stack.call('POST', '/choreos/Test/Quick', alice);
    expect(quick.status, quick.text).toBe(200);
    expect(quick.json().execution.status).toBe('SUCCESS');
    // What each worker says it holds, in a heartbeat written since: an earlier one may show a run
    // it held on its way to being suspended.
    const heartbeats = await waitFor(
      async () => {
        const live = await stack.liveWorkers();
        return live.length === 2 && live.every((worker) => worker.lastSeen > allSuspendedAt) ? live : undefined;
      },
      { timeoutMs: 15_000, what: 'a heartbeat of each worker written while the runs wait' },
    );
    for (const worker of heartbeats) expect(worker.active.filter((id) => ids.includes(id))).toEqual([]);

    // Operations tell them apart from queued and executing runs.
    const operator = { authorization: `Basic ${Buffer.from(`${stack.credentials.operator.name}:${stack.credentials.operator.secret}`).toString('base64')}` };
    const counts = (await stack.http.request('GET', '/ops/executions', { headers: operator })).json().executions;
    expect(counts).toMatchObject({ waiting: ids.length, waitingForCallBack: 0, executing: 0, queued: 0 });
    expect(counts.running).toBeGreaterThanOrEqual(ids.length);
    const metrics = (await stack.http.request('GET', '/metrics', { headers: operator })).text;
    expect(metrics).toMatch(new RegExp(`^ces_executions_waiting\\{[^}]*for="time"[^}]*\\} ${ids.length}$`, 'm'));
    expect(metrics).toMatch(/^ces_executions_waiting\{[^}]*for="call-back"[^}]*\} 0$/m);

    // Waiting, they are RUNNING on no host.
    const listed = (await stack.call('GET', '/choreo-executions', alice)).json().executions as { id: string; status: string; host: string }[];
    for (const id of ids) expect(listed.find((row) => row.id === id)).toMatchObject({ status: 'RUNNING', host: '' });
    expect((await stack.call('GET', `/choreo-executions/${ids[0]}`, alice)).json().execution).toMatchObject({ status: 'RUNNING', host: '' });

    for (const [i, id] of ids.entries()) {
      expect((await stack.waitForEnd(id, alice, 60_000)).status).toBe('SUCCESS');
      expect((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output).toEqual({ CompletedSteps: '3' });
      expectRanOnceAfterTheWait(`many${i}`, waitMs);
    }
    expect(await waitingCount()).toBe(0);
  });

  it('resumes a run suspended by an earlier version (its wait in the record field `wait`) to SUCCESS, running no step twice', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const waitMs = 4_000;
    const id = await stack.startRun('Test/CountedWait', alice, { CounterURL: counter.urlFor('earlier'), WaitMilliseconds: String(waitMs) });
    await waitFor(async () => (await isWaiting(id)) && (await isDelayed(id)), { timeoutMs: 20_000, what: 'the run to be suspended' });
    // Stored as earlier versions stored a top-level wait: its entries in the record, no progress.
    const record = stack.keys.execution(id);
    const progress = stack.keys.executionProgress(id);
    const entries = await stack.redis.hgetall(progress);
    expect(Object.keys(entries).length).toBeGreaterThan(0);
    const earlier = Object.fromEntries(Object.entries(entries).map(([address, json]) => [address, JSON.parse(json) as unknown]));
    await stack.redis.multi().hset(record, 'wait', JSON.stringify(earlier)).hdel(record, 'cursor').del(progress).exec();

    expect((await stack.waitForEnd(id, alice, 30_000)).status, stack.logs()).toBe('SUCCESS');
    expectRanOnceAfterTheWait('earlier', waitMs);
    expect(await stack.redis.hexists(record, 'wait')).toBe(0);
  });

  it('resumes a run checkpointed by an earlier version (every result in the record field `results`) to SUCCESS, running no step twice', {
    timeout: 60_000,
  }, async () => {
    const alice = stack.credentials.alice;
    const waitMs = 4_000;
    const id = await stack.startRun('Test/CountedWait', alice, { CounterURL: counter.urlFor('checkpointed'), WaitMilliseconds: String(waitMs) });
    await waitFor(async () => (await isWaiting(id)) && (await isDelayed(id)), { timeoutMs: 20_000, what: 'the run to be suspended' });
    // Stored as the earlier checkpoint stored it: the completed call's result in the record's
    // results map with the step reached, the wait's entries alone in the progress.
    const record = stack.keys.execution(id);
    const progress = stack.keys.executionProgress(id);
    const call0 = await stack.redis.hget(progress, 'call0');
    expect(call0).not.toBeNull();
    expect(await stack.redis.hget(record, 'step')).toBe('1');
    await stack.redis
      .multi()
      .hset(record, 'results', JSON.stringify({ call0: JSON.parse(call0 as string) as unknown }))
      .hdel(progress, 'call0')
      .exec();

    expect((await stack.waitForEnd(id, alice, 30_000)).status, stack.logs()).toBe('SUCCESS');
    expectRanOnceAfterTheWait('checkpointed', waitMs);
    expect((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output).toEqual({ CompletedSteps: '3' });
    expect(await stack.redis.hexists(record, 'results')).toBe(0);
  });

  it('ends a waiting run at once on DELETE, without waiting for its timer', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/CountedWait', alice, { CounterURL: counter.urlFor('delete'), WaitMilliseconds: '600000' });
    // Waiting, and its job among the delayed ones: before the worker has moved the job, BullMQ
    // refuses to take it out of the queue, and the DELETE can only flag the run for its next take.
    await waitFor(async () => (await isWaiting(id)) && (await isDelayed(id)), { timeoutMs: 20_000, what: 'the run to be suspended and its job delayed' });

    expect((await stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBe(204);
    // Ended by the DELETE itself: no worker held it.
    const ended = (await stack.call('GET', `/choreo-executions/${id}`, alice)).json().execution;
    expect(ended).toMatchObject({ status: 'TERMINATED_MANUALLY', host: '' });
    expect(await stack.redis.exists(`${stack.prefix}:executions:${id}`)).toBe(0);
    expect(await isWaiting(id)).toBe(false);
    expect((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output).toEqual({ CompletedSteps: '1' });
    expect(counter.stepsOf('delete')).toEqual([0]);
  });

  it('ends a waiting run at its time limit, not at the end of its wait', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/WaitLimited', alice, { WaitMilliseconds: '600000' });
    await waitFor(() => isWaiting(id), { timeoutMs: 20_000, what: 'the run to be suspended' });
    const ended = await stack.waitForEnd(id, alice, 30_000);
    expect(ended.status).toBe('TERMINATED_LIMIT');
    expect((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output).toEqual({ CompletedSteps: '0' });
  });

  it('suspends waits inside a loop, and resumes each iteration after its wait without repeating a call', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/CountedLoop', alice, { CounterURL: counter.urlFor('loop'), Count: '3', WaitMilliseconds: '1500' });
    await waitFor(() => isWaiting(id), { timeoutMs: 20_000, what: 'the loop to be suspended in a wait' });
    const ended = await stack.waitForEnd(id, alice, 40_000);
    expect(ended.status).toBe('SUCCESS');
    expect((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output).toMatchObject({ Iterations: '3', After: '200' });
    expect(counter.stepsOf('loop')).toEqual([0, 1, 2, 1_000_000]);
  });

  it('loses no waiting run, wakes none early and runs none twice when workers are killed or stopped', { timeout: 120_000 }, async () => {
    const alice = stack.credentials.alice;
    const waitMs = 8_000;
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        stack.startRun('Test/CountedWait', alice, { CounterURL: counter.urlFor(`kill${i}`), WaitMilliseconds: String(waitMs) }),
      ),
    );
    await waitFor(async () => (await Promise.all(ids.map(isWaiting))).every(Boolean), { timeoutMs: 30_000, what: 'every run to be suspended' });

    const [killed, stopped] = stack.workers.filter((worker) => worker.running);
    killed?.kill('SIGKILL');
    await killed?.exited;
    await stopped?.stop();
    stack.addWorker();
    stack.addWorker();
    await stack.waitForWorkers(2);

    for (const [i, id] of ids.entries()) {
      expect((await stack.waitForEnd(id, alice, 60_000)).status, stack.logs()).toBe('SUCCESS');
      expectRanOnceAfterTheWait(`kill${i}`, waitMs);
    }
    expect(await waitingCount()).toBe(0);
  });
});

// A Redis of this describe's own (AOF on), stopped and started again while runs wait: the records,
// the waiting set and the delayed jobs come back from the AOF, and every run wakes when due.
describe('durable waits across a Redis restart', () => {
  const catalogue = writeWorkerTestCatalogue();
  const counter = new StepCounter();
  const dataDir = mkdtempSync(join(tmpdir(), 'ces-redis-waits-'));
  let port = 0;
  let redis: LocalRedis;
  let stack: Stack;

  beforeAll(async () => {
    await counter.start();
    port = await findFreePort();
    redis = await startLocalRedis({ dataDir, port, appendOnly: true });
    stack = await startStack({ redisUrl: redis.url, workers: 1, choreosDir: catalogue.dir, workerEnv: DURABLE_FROM });
  });

  afterAll(async () => {
    await stack?.stop();
    await redis?.close();
    await counter.close();
    rmSync(dataDir, { recursive: true, force: true });
    catalogue.remove();
  });

  it('wakes every waiting run once, when due, after Redis restarts', { timeout: 120_000 }, async () => {
    const alice = stack.credentials.alice;
    const waitMs = 8_000;
    const ids = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        stack.startRun('Test/CountedWait', alice, { CounterURL: counter.urlFor(`restart${i}`), WaitMilliseconds: String(waitMs) }),
      ),
    );
    await waitFor(async () => (await stack.redis.zcard(`${stack.prefix}:waiting`)) === ids.length, { timeoutMs: 30_000, what: 'every run to be suspended' });

    await redis.close();
    await waitFor(async () => (await stack.http.request('GET', '/readyz')).status === 503, { what: 'the API to notice the outage' });
    redis = await startLocalRedis({ dataDir, port, appendOnly: true });

    for (const [i, id] of ids.entries()) {
      expect((await stack.waitForEnd(id, alice, 60_000)).status, stack.logs()).toBe('SUCCESS');
      expect(counter.stepsOf(`restart${i}`)).toEqual([0, 2]);
      expect((counter.firstCallAt(`restart${i}`, 2) ?? 0) - (counter.firstCallAt(`restart${i}`, 0) ?? 0)).toBeGreaterThanOrEqual(waitMs);
    }
    expect(await stack.redis.zcard(`${stack.prefix}:waiting`)).toBe(0);
  });
});
