import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const ECHO = '/Library/Utilities/Development/Echo';

// Runs that a real worker ended are found in the run history afterwards, by status and Choreo.
describe('run history with a worker', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const run = async (outputFilters: unknown[] = []) => {
    const res = await stack.call('POST', `/choreos${ECHO}`, stack.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'Message', value: 'hi' }], outputFilters }),
    });
    expect(res.status, res.text).toBe(200);
    return res.json().execution as { id: string; status: string };
  };

  it('finds runs ended SUCCESS and ERROR, newest first', async () => {
    const since = Date.now();
    const first = await run();
    const second = await run();
    const failed = await run([{ name: 'Missing', path: '$.message', variable: 'NoSuchOutput' }]);
    expect([first.status, second.status, failed.status]).toEqual(['SUCCESS', 'SUCCESS', 'ERROR']);

    const all = (await stack.call('GET', `/choreo-executions?since=${since}`, stack.credentials.alice)).json();
    expect(all.executions.map((entry: { id: string }) => entry.id)).toEqual([failed.id, second.id, first.id]);
    expect(all.executions[0]).toMatchObject({ status: 'ERROR', choreo: ECHO, endtime: expect.stringMatching(/^\d+$/) });

    const errors = (await stack.call('GET', `/choreo-executions?since=${since}&status=ERROR&choreo=${ECHO}`, stack.credentials.alice)).json();
    expect(errors.executions.map((entry: { id: string }) => entry.id)).toEqual([failed.id]);

    const paged = (await stack.call('GET', `/choreo-executions?since=${since}&status=SUCCESS&limit=1`, stack.credentials.alice)).json();
    expect(paged.executions.map((entry: { id: string }) => entry.id)).toEqual([second.id]);
    const rest = (await stack.call('GET', `/choreo-executions?since=${since}&status=SUCCESS&limit=1&cursor=${paged.next}`, stack.credentials.alice)).json();
    expect(rest.executions.map((entry: { id: string }) => entry.id)).toEqual([first.id]);
  });

  it("leaves another account's runs out", async () => {
    const since = Date.now();
    const mine = await run();
    const seen = (await stack.call('GET', `/choreo-executions?since=${since}`, stack.credentials.bob)).json();
    expect(seen.executions.map((entry: { id: string }) => entry.id)).not.toContain(mine.id);
  });

  it('shows operators the runs of every account, or of one', async () => {
    const since = Date.now();
    const mine = await run();
    const theirs = (
      await stack.call('POST', `/choreos${ECHO}`, stack.credentials.bob, { body: JSON.stringify({ inputs: [{ name: 'Message', value: 'hi' }] }) })
    ).json().execution as { id: string };
    const { name, secret } = stack.credentials.operator;
    const authorization = `Basic ${Buffer.from(`${name}:${secret}`).toString('base64')}`;
    const ops = async (query: string) =>
      (await stack.http.request('GET', `/ops/executions/history?${query}`, { headers: { authorization } })).json().executions as {
        id: string;
        account: string;
      }[];
    expect((await ops(`since=${since}`)).map((entry) => entry.id)).toEqual([theirs.id, mine.id]);
    expect(await ops(`since=${since}&account=other`)).toEqual([expect.objectContaining({ id: theirs.id, account: 'other' })]);
  });
});
