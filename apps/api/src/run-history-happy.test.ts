import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';
import { recordRuns } from './test-support/recorded-runs.ts';

// The run history: `GET /choreo-executions` with parameters lists retained runs, newest first.
const xml = new XMLParser({ parseTagValue: false, isArray: (name) => name === 'execution' });
const A = '/Library/Utilities/Encoding/Base64Encode';
const B = '/Library/Utilities/Encoding/Base64Decode';

describe('run history', () => {
  let t: InProcessApp;
  // Each test its own span of start times, far from now, so runs of other tests never fall in it.
  let span = Date.UTC(2020, 0, 1);
  const nextSpan = () => {
    span += 1_000_000;
    return span;
  };

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  const list = async (query: string) => {
    const res = await t.call('GET', `/choreo-executions?${query}`, t.credentials.alice);
    expect(res.status).toBe(200);
    return (await res.json()) as { executions: { id: string; status: string; endtime: string; choreo: string }[]; next?: string };
  };
  const ids = async (query: string) => (await list(query)).executions.map((entry) => entry.id);

  it('filters by status, Choreo and start time, alone and combined', async () => {
    const base = nextSpan();
    const range = `since=${base}&until=${base + 999}`;
    const [ok, failed, running, other] = await recordRuns(t.executions, base, [
      { choreo: A, status: 'SUCCESS' },
      { choreo: A, status: 'ERROR' },
      { choreo: B },
      { choreo: B, status: 'SUCCESS' },
    ]);
    expect(await ids(`status=any&${range}`)).toEqual([other, running, failed, ok]);
    expect(await ids(`status=SUCCESS&${range}`)).toEqual([other, ok]);
    expect(await ids(`status=RUNNING&${range}`)).toEqual([running]);
    expect(await ids(`choreo=${A}&${range}`)).toEqual([failed, ok]);
    expect(await ids(`choreo=${B}&status=SUCCESS&${range}`)).toEqual([other]);
    expect(await ids(`since=${base + 1}&until=${base + 2}`)).toEqual([running, failed]);
    const [entry] = (await list(`status=ERROR&${range}`)).executions;
    expect(entry).toMatchObject({ id: failed, status: 'ERROR', choreo: A, starttime: String(base + 1), endtime: expect.stringMatching(/^\d+$/) });
    expect((await list(`status=RUNNING&${range}`)).executions[0]?.endtime).toBe('');
  });

  it('pages with a cursor that stays stable while runs are added', async () => {
    const base = nextSpan();
    const range = `since=${base}&until=${base + 999}`;
    const runs = await recordRuns(
      t.executions,
      base,
      Array.from({ length: 5 }, () => ({ choreo: A, status: 'SUCCESS' as const })),
    );
    const first = await list(`${range}&limit=2`);
    expect(first.executions.map((entry) => entry.id)).toEqual([runs[4], runs[3]]);
    // Newer runs arrive between the pages: none of them shifts what the cursor has left to show.
    await recordRuns(t.executions, base + 500, [{ choreo: A }, { choreo: A }]);
    const second = await list(`${range}&limit=2&cursor=${first.next}`);
    expect(second.executions.map((entry) => entry.id)).toEqual([runs[2], runs[1]]);
    const third = await list(`${range}&limit=2&cursor=${second.next}`);
    expect(third.executions.map((entry) => entry.id)).toEqual([runs[0]]);
    expect(third.next).toBeUndefined();
  });

  it('answers in XML in the style of the running list', async () => {
    const base = nextSpan();
    const [id] = await recordRuns(t.executions, base, [{ choreo: A, status: 'SUCCESS' }]);
    const res = await t.call('GET', `/choreo-executions?since=${base}&until=${base}`, t.credentials.alice, { accept: 'application/xml' });
    expect(res.status).toBe(200);
    const body = xml.parse(await res.text());
    expect(body.executions.execution).toEqual([expect.objectContaining({ id, status: 'SUCCESS', choreo: A })]);
  });

  it('keeps the running list without parameters as it was', async () => {
    const res = await t.call('GET', '/choreo-executions', t.credentials.alice);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).not.toHaveProperty('next');
    expect(body.executions.every((entry: { status: string; endtime?: string }) => entry.status === 'RUNNING' && entry.endtime === undefined)).toBe(true);
  });

  it('drops a run from the history once its record has expired', async () => {
    const short = await startInProcessApp({ redisUrl: inject('redisUrl'), retentionSeconds: 1 });
    try {
      const base = nextSpan();
      const [id] = await recordRuns(short.executions, base, [{ choreo: A, status: 'SUCCESS' }]);
      const query = `/choreo-executions?since=${base}&until=${base}`;
      expect((await (await short.call('GET', query, short.credentials.alice)).json()).executions.map((entry: { id: string }) => entry.id)).toEqual([id]);
      const deadline = Date.now() + 5000;
      while ((await short.redis.exists(short.keys.execution(id as string))) === 1 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect((await (await short.call('GET', query, short.credentials.alice)).json()).executions).toEqual([]);
      expect(await short.redis.zscore(short.keys.accountHistoryByStatus('acme', 'SUCCESS'), id as string)).toBeNull();
    } finally {
      await short.close();
    }
  });
});
