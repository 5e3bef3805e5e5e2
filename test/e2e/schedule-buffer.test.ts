import { tickExecutionId } from '@ces/store';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const WAIT = '/Library/Utilities/Development/Wait';
/** The schedules' interval, aligned on the epoch: none of their own ticks falls due during a test (an hourly one did, at the top of the hour). */
const PERIOD = 1_000 * 3_600_000;

// buffer-one through the REST interface of a real API process, with real workers: a trigger or a
// backfill while the last run goes on leaves one tick waiting, which a worker starts once that
// run has ended.
describe('buffer-one triggers and backfills', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 2 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const execution = async (id: string) => {
    const res = await stack.call('GET', `/choreo-executions/${id}`, stack.credentials.alice);
    return res.status === 200 ? res.json().execution : undefined;
  };
  const ended = (id: string) =>
    waitFor(
      async () => {
        const found = await execution(id);
        return found?.status === 'SUCCESS' ? found : undefined;
      },
      { timeoutMs: 40_000, what: `run ${id} ended` },
    );
  const putLong = async (name: string) => {
    const put = await stack.call('PUT', `/schedules/${name}`, stack.credentials.alice, {
      body: JSON.stringify({ choreo: WAIT, inputs: [{ name: 'Milliseconds', value: '3000' }], every: '1000h', overlap: 'buffer-one' }),
    });
    expect(put.status, put.text).toBe(201);
  };

  it('a trigger while a long run goes on waits, then starts once that run has ended', { timeout: 90_000 }, async () => {
    const { alice } = stack.credentials;
    await putLong('long');
    const first = await stack.call('POST', '/schedules/long/trigger', alice);
    expect(first.status, first.text).toBe(202);
    const running = first.json();
    expect(running.execution.status).toBe('RUNNING');

    const second = await stack.call('POST', '/schedules/long/trigger', alice);
    expect(second.status, second.text).toBe(202);
    expect(second.headers.location).toBeUndefined();
    const waiting = second.json();
    expect(waiting.execution).toMatchObject({ id: waiting.id, status: 'BUFFERED', schedule: 'long', starttime: '' });
    expect((await stack.call('GET', '/schedules/long', alice)).json()).toMatchObject({ bufferedTime: waiting.execution.scheduledTime });

    const firstEnded = await ended(running.id);
    const secondEnded = await ended(waiting.id);
    expect(secondEnded).toMatchObject({ schedule: 'long', scheduledTime: waiting.execution.scheduledTime });
    expect(Number(secondEnded.starttime)).toBeGreaterThanOrEqual(Number(firstEnded.endtime));
    const shown = (await stack.call('GET', '/schedules/long', alice)).json();
    expect(shown).toMatchObject({ fired: 2, skipped: 0, lastRun: { id: waiting.id, status: 'SUCCESS' } });
    expect(shown.bufferedTime).toBeUndefined();
  });

  it('a backfill of three ticks while a run goes on: the oldest waits and starts after it, the two others are skipped and counted', {
    timeout: 90_000,
  }, async () => {
    const { alice } = stack.credentials;
    await putLong('refill');
    const running = (await stack.call('POST', '/schedules/refill/trigger', alice)).json();
    expect(running.execution.status).toBe('RUNNING');
    const from = Math.floor(Date.now() / PERIOD) * PERIOD - 3 * PERIOD;
    const backfill = await stack.call('POST', '/schedules/refill/backfill', alice, { body: JSON.stringify({ from, to: from + 2 * PERIOD }) });
    expect(backfill.status, backfill.text).toBe(202);
    const filled = backfill.json();
    expect(filled).toMatchObject({ ticks: 3, started: [], skipped: 2, existing: 0, buffered: { scheduledTime: String(from) } });

    const runningEnded = await ended(running.id);
    const waitedEnded = await ended(filled.buffered.id);
    expect(waitedEnded).toMatchObject({ schedule: 'refill', scheduledTime: String(from) });
    expect(Number(waitedEnded.starttime)).toBeGreaterThanOrEqual(Number(runningEnded.endtime));
    expect((await stack.call('GET', '/schedules/refill', alice)).json()).toMatchObject({ fired: 2, skipped: 2 });
    // The skipped ticks started nothing.
    for (const tick of [from + PERIOD, from + 2 * PERIOD]) expect(await execution(tickExecutionId(alice.account, 'refill', tick))).toBeUndefined();
  });
});
