import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

// Ten waits of a minute: a run that stays taken for as long as the test looks at it.
const COUNTDOWN = '/Library/Utilities/Development/Countdown';
/** How soon after a take (or an end) the list of workers must say so; heartbeats come every 5 s. */
const PUBLISHED_WITHIN_MS = 1_000;

describe('/ops/workers over real processes: a run shows on its worker from the take to the end', () => {
  let stack: Stack;

  const opsWorkers = async () => {
    const authorization = `Basic ${Buffer.from(`${stack.credentials.operator.name}:${stack.credentials.operator.secret}`).toString('base64')}`;
    const res = await stack.http.request('GET', '/ops/workers', { headers: { authorization } });
    expect(res.status, res.text).toBe(200);
    return res.json().workers as { id: string; active: number; activeExecutions: string[] }[];
  };
  /** The worker holding the execution as the registry lists it now (what /ops/workers reads). */
  const listedOn = async (id: string) => (await stack.liveWorkers()).find((worker) => worker.active.includes(id))?.id;

  beforeAll(async () => {
    // Its runs wait in the worker, as waits under the durable threshold do: a suspended run holds no worker.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 2, workerEnv: { WORKER_CONCURRENCY: '1', DURABLE_WAIT_THRESHOLD_MS: '86400000' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('lists each run under the worker that took it within a second of the take, and drops it within a second of its end', async () => {
    // One run per worker: each check is made twice, on two workers whose heartbeats fall at
    // different times, so that a heartbeat that happens to come in the second cannot pass both.
    const ids = [await stack.startRun(COUNTDOWN, stack.credentials.acmeApp, { StepMilliseconds: '60000' })];
    ids.push(await stack.startRun(COUNTDOWN, stack.credentials.acmeApp, { StepMilliseconds: '60000' }));
    const holders: string[] = [];
    for (const id of ids) {
      // The take, as the record shows it: its worker is set in the same script that publishes it.
      const workerId = await waitFor(async () => (await stack.executions.get(id))?.workerId || undefined, {
        timeoutMs: 30_000,
        intervalMs: 20,
        what: `execution ${id} to be taken`,
      });
      await waitFor(async () => (await listedOn(id)) === workerId, {
        timeoutMs: PUBLISHED_WITHIN_MS,
        intervalMs: 20,
        what: `execution ${id} to be listed under ${workerId}`,
      });
      holders.push(workerId);
    }
    expect(new Set(holders).size).toBe(2);

    // The operator's view says the same, from the API.
    const listed = await opsWorkers();
    for (const [index, id] of ids.entries()) {
      const holder = listed.find((worker) => worker.id === holders[index]);
      expect(holder?.activeExecutions).toEqual([id]);
      expect(holder?.active).toBe(1);
    }

    for (const id of ids) {
      expect((await stack.call('DELETE', `/choreo-executions/${id}`, stack.credentials.acmeApp)).status).toBe(204);
      await waitFor(async () => (await stack.executions.get(id))?.status !== 'RUNNING', {
        timeoutMs: 30_000,
        intervalMs: 20,
        what: `execution ${id} to end`,
      });
      await waitFor(async () => (await listedOn(id)) === undefined, {
        timeoutMs: PUBLISHED_WITHIN_MS,
        intervalMs: 20,
        what: `execution ${id} to leave its worker's list`,
      });
    }
    expect((await opsWorkers()).map((worker) => worker.activeExecutions)).toEqual([[], []]);
  }, 120_000);
});
