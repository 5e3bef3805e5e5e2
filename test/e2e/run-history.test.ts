import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const ECHO = '/Library/Utilities/Development/Echo';

interface HistoryAnswer {
  executions: { id: string; choreo: string; status: string; endtime: string }[];
  next?: string;
}

// Runs that a real worker ended stay findable in the run history after they stopped running.
describe('run history through the API and a worker', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  async function runEcho(outputFilters: unknown[]): Promise<{ id: string; status: string }> {
    const res = await stack.call('POST', `/choreos${ECHO}`, stack.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'Message', value: 'hi' }], outputFilters }),
    });
    expect(res.status, res.text).toBe(200);
    return res.json().execution;
  }

  async function history(query: string, credential = stack.credentials.alice): Promise<HistoryAnswer> {
    const res = await stack.call('GET', `/choreo-executions?${query}`, credential);
    expect(res.status, res.text).toBe(200);
    return res.json();
  }

  it('finds runs that ended in SUCCESS and ERROR by status and Choreo, only in their account', async () => {
    const succeeded = await runEcho([]);
    const failed = await runEcho([{ name: 'Missing', path: '$.message', variable: 'NoSuchOutput' }]);
    expect(succeeded.status).toBe('SUCCESS');
    expect(failed.status).toBe('ERROR');

    const successes = (await history('status=SUCCESS')).executions;
    expect(successes.map((e) => e.id)).toContain(succeeded.id);
    expect(successes.map((e) => e.id)).not.toContain(failed.id);
    expect(successes.find((e) => e.id === succeeded.id)?.endtime).toMatch(/^\d+$/);

    const errors = (await history('status=ERROR')).executions;
    expect(errors.map((e) => e.id)).toEqual(expect.arrayContaining([failed.id]));
    expect(errors.map((e) => e.id)).not.toContain(succeeded.id);

    const echoes = (await history(`status=any&choreo=${encodeURIComponent(ECHO)}`)).executions;
    const ids = echoes.map((e) => e.id);
    // Newest first: the run that failed started after the one that succeeded.
    expect(ids.indexOf(failed.id)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(failed.id)).toBeLessThan(ids.indexOf(succeeded.id));

    const seenByOtherAccount = (await history('status=any', stack.credentials.bob)).executions.map((e) => e.id);
    expect(seenByOtherAccount).not.toContain(succeeded.id);
    expect(seenByOtherAccount).not.toContain(failed.id);
  });
});
