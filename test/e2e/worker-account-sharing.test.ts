import { waitFor, must } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { writeWorkerTestCatalogue } from '../support/worker-test-catalogue.ts';

// MAX_EXECUTING_PER_ACCOUNT with real worker processes: one account's backlog takes at most its
// share of the workers, and another account's run is taken past it.
describe('workers shared between accounts', () => {
  const catalogue = writeWorkerTestCatalogue();
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      redisUrl: inject('redisUrl'),
      workers: 2,
      choreosDir: catalogue.dir,
      workerEnv: { WORKER_CONCURRENCY: '4', MAX_EXECUTING_PER_ACCOUNT: '2' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
    catalogue.remove();
  });

  /** How many of these executions a worker holds now, read in one transaction. */
  async function held(ids: string[]): Promise<{ held: number; running: number }> {
    const multi = stack.redis.multi();
    for (const id of ids) multi.hmget(stack.keys.execution(id), 'status', 'host');
    const replies = ((await multi.exec()) ?? []).map(([, value]) => value as [string, string]);
    const running = replies.filter(([status]) => status === 'RUNNING');
    return { held: running.filter(([, host]) => host !== '').length, running: running.length };
  }

  it('runs at most the limit of one account at once, and another account’s run past its backlog', async () => {
    const { alice, bob } = stack.credentials;
    const backlog: string[] = [];
    for (let i = 0; i < 13; i += 1) backlog.push(await stack.startRun('Test/Waits', alice, { StepMilliseconds: '40' }));
    await waitFor(async () => (await held(backlog)).held === 2, { what: 'two of the backlog to be taken' });

    const other = await stack.startRun('Test/Quick', bob);
    const ended = await stack.waitForEnd(other, bob);
    expect(ended.status).toBe('SUCCESS');
    // Eight places in all, two for the account with the backlog: most of it still waits.
    const whenOtherEnded = await held(backlog);
    expect(whenOtherEnded.running - whenOtherEnded.held).toBeGreaterThanOrEqual(6);

    // A run put back to wait is still a queued run: terminated at once, its job gone (or, when the
    // DELETE meets a worker refusing it that very instant, as soon as it is next taken).
    const last = must(backlog.pop());
    await waitFor(async () => (await stack.redis.hget(stack.keys.execution(last), 'deferrals')) !== null, { what: 'the last run to be put back to wait' });
    expect((await stack.call('DELETE', `/choreo-executions/${last}`, alice)).status).toBe(204);
    expect((await stack.waitForEnd(last, alice)).status).toBe('TERMINATED_MANUALLY');

    let most = 0;
    await waitFor(
      async () => {
        const now = await held(backlog);
        most = Math.max(most, now.held);
        return now.running === 0;
      },
      { timeoutMs: 60_000, intervalMs: 20, what: 'the backlog to end' },
    );
    expect(most).toBe(2);
    for (const id of backlog) {
      const res = await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice);
      expect(res.json()).toMatchObject({ execution: { status: 'SUCCESS' }, output: { CompletedSteps: '10' } });
    }
    expect(await stack.redis.scard(stack.keys.accountExecuting('acme'))).toBe(0);
  });
});
