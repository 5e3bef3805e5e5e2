import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

/**
 * Pages a Choreo fetches: `GET /<tag>/page/<n>` answers `{"page": n}`, or drops the connection
 * from page `failFrom[tag]` on while that is set (the fetch itself fails); every request is
 * counted, so a test sees which pages a run and its redrives fetched.
 */
class PageServer {
  readonly failFrom = new Map<string, number>();
  private readonly requests = new Map<string, number>();
  private readonly server: Server = createServer((req, res) => {
    req.resume();
    const [, tag = '', , page = ''] = (req.url ?? '').split('/');
    const key = `${tag}/${page}`;
    this.requests.set(key, (this.requests.get(key) ?? 0) + 1);
    const failing = this.failFrom.get(tag);
    if (failing !== undefined && Number(page) >= failing) {
      req.socket.destroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ page: Number(page) }));
  });
  url = '';

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** How many times each page of `tag` was fetched, for pages `from` to `to`. */
  fetched(tag: string, pages: readonly number[]): number[] {
    return pages.map((page) => this.requests.get(`${tag}/${page}`) ?? 0);
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, index) => from + index);
const times = (count: number, value: number) => Array.from({ length: count }, () => value);

/** Fetches a page (failing when the connection drops); the page's body is the result. */
const fetchPage = (id: string, page: string) => [
  { id: `${id}Fetch`, kind: 'http.request', args: { url: `{{inputs.BaseURL}}/page/${page}` } },
  { id: `${id}Body`, kind: 'text.template', args: { text: `{{steps.${id}Fetch.body}}` } },
];
const baseUrl = { description: 'Where the pages are, with the tag.', required: true };

const COLLECT_PAGES = {
  description: 'Fetches pages 0 to Count - 1, one after the other, then one more call.',
  inputs: { BaseURL: baseUrl, Count: { description: 'Pages.', default: '20' } },
  outputs: { Pages: { description: 'Pages fetched.', value: '{% $string($count(steps.pages)) %}' } },
  steps: [
    { id: 'pages', forEach: '{% [0..($number(inputs.Count) - 1)] %}', steps: fetchPage('page', '{{loop.item}}') },
    { id: 'after', kind: 'http.request', args: { url: '{{inputs.BaseURL}}/page/1000' } },
  ],
};

/** The same pages, a pause after each, under a time limit far too short for them all. */
const SLOW_PAGES = {
  ...COLLECT_PAGES,
  description: 'Fetches pages with a pause after each, under a one-second time limit.',
  timeLimitSeconds: 1,
  steps: [
    {
      id: 'pages',
      forEach: '{% [0..($number(inputs.Count) - 1)] %}',
      steps: [...fetchPage('page', '{{loop.item}}'), { id: 'pause', kind: 'control.wait', args: { milliseconds: 100 } }],
    },
  ],
};

const NESTED = {
  description: 'A loop of loops in one parallel branch, one page in the other.',
  inputs: { BaseURL: baseUrl },
  outputs: { Groups: { description: 'Outer iterations.', value: '{% $string($count(steps.outer)) %}' } },
  steps: [
    {
      id: 'both',
      parallel: [
        [
          {
            id: 'outer',
            forEach: '[[0, 1, 2, 3], [10, 11, 12, 13], [20, 21, 22, 23]]',
            steps: [{ id: 'inner', forEach: '{% loop.item %}', steps: fetchPage('cell', '{{loop.item}}') }],
          },
        ],
        fetchPage('side', '5'),
      ],
    },
  ],
};

const CHILD = {
  description: 'Fetches two pages.',
  inputs: { BaseURL: baseUrl, First: { description: 'A page.', required: true }, Second: { description: 'Another.', required: true } },
  outputs: { Body: { description: 'The second page.', value: '{{steps.twoBody.text}}' } },
  steps: [...fetchPage('one', '{{inputs.First}}'), ...fetchPage('two', '{{inputs.Second}}')],
};

const child = (id: string, first: string, second: string) => ({
  id,
  kind: 'choreo.run',
  args: { choreo: '/Redrive/Child', inputs: { BaseURL: '{{inputs.BaseURL}}', First: first, Second: second } },
});
const PARENT = {
  description: 'Two children, two pages each.',
  inputs: { BaseURL: baseUrl },
  outputs: {
    First: { description: 'Page 1.', value: '{{steps.first.outputs.Body}}' },
    Second: { description: 'Page 3.', value: '{{steps.second.outputs.Body}}' },
    SecondId: { description: 'The second child.', value: '{{steps.second.executionId}}' },
  },
  steps: [child('first', '0', '1'), child('second', '2', '3')],
};

// Redrive with real workers: a failed run's new execution fetches only what the first did not.
describe('redrive', () => {
  let stack: Stack;
  const pages = new PageServer();

  beforeAll(async () => {
    await pages.start();
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
    for (const [id, document] of Object.entries({ CollectPages: COLLECT_PAGES, SlowPages: SLOW_PAGES, Nested: NESTED, Child: CHILD, Parent: PARENT })) {
      const res = await stack.call('PUT', `/choreos/Redrive/${id}`, stack.credentials.alice, { body: JSON.stringify(document) });
      expect(res.status, res.text).toBeOneOf([200, 201]);
    }
  });

  afterAll(async () => {
    await stack?.stop();
    await pages.close();
  });

  const redrive = async (id: string, body?: string) => {
    const res = await stack.call('POST', `/choreo-executions/${id}/redrive`, stack.credentials.alice, body === undefined ? {} : { body });
    expect(res.status, res.text).toBe(202);
    return res.json().id as string;
  };
  const outputsOf = async (id: string) => (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, stack.credentials.alice)).json().output;

  it('fetches only the pages a failed loop had not, twice in a row, each run keeping its own status', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    pages.failFrom.set('collect', 12);
    const first = await stack.startRun('/Redrive/CollectPages', alice, { BaseURL: `${pages.url}/collect` });
    const failed = await stack.waitForEnd(first, alice, 30_000);
    expect(failed).toMatchObject({ status: 'ERROR', lasterror: expect.stringContaining('pages[12].pageFetch') });
    expect(pages.fetched('collect', range(0, 19))).toEqual([...times(13, 1), ...times(7, 0)]);

    // Recovered up to page 15 only: the redrive fails again, further on.
    pages.failFrom.set('collect', 16);
    const second = await redrive(first);
    expect(await stack.waitForEnd(second, alice, 30_000)).toMatchObject({ status: 'ERROR', redriveOf: first });
    expect(pages.fetched('collect', range(0, 19))).toEqual([...times(12, 1), 2, 1, 1, 1, 1, 0, 0, 0]);

    pages.failFrom.delete('collect');
    const third = await redrive(second);
    expect(await stack.waitForEnd(third, alice, 30_000)).toMatchObject({ status: 'SUCCESS', redriveOf: second });
    expect(pages.fetched('collect', range(0, 19))).toEqual([...times(12, 1), 2, 1, 1, 1, 2, 1, 1, 1]);
    expect(pages.fetched('collect', [1000])).toEqual([1]);
    expect(await outputsOf(third)).toEqual({ Pages: '20' });

    const original = (await stack.call('GET', `/choreo-executions/${first}`, alice)).json().execution;
    expect(original).toMatchObject({ status: 'ERROR', redrivenBy: second });
    expect((await stack.call('GET', `/choreo-executions/${second}`, alice)).json().execution).toMatchObject({
      status: 'ERROR',
      redriveOf: first,
      redrivenBy: third,
    });
  });

  it('goes on where a run that ran out of time stopped, redrive after redrive', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    let id = await stack.startRun('/Redrive/SlowPages', alice, { BaseURL: `${pages.url}/slow`, Count: '25' });
    const statuses: string[] = [];
    for (let round = 0; round < 10; round++) {
      const ended = await stack.waitForEnd(id, alice, 30_000);
      statuses.push(ended.status ?? '');
      if (ended.status !== 'TERMINATED_LIMIT') break;
      id = await redrive(id);
    }
    // Each run gets through some of the pages within its second; the last gets through the rest.
    expect(statuses.length).toBeGreaterThan(1);
    expect(statuses.at(-1)).toBe('SUCCESS');
    expect(statuses.slice(0, -1).every((status) => status === 'TERMINATED_LIMIT')).toBe(true);
    // A run stopped inside an iteration (after its page, before its pause ended) leaves that
    // iteration incomplete: its redrive runs it again from its start, page included. No other page
    // is fetched twice.
    const fetched = pages.fetched('slow', range(0, 24));
    expect(fetched.every((count) => count === 1 || count === 2)).toBe(true);
    expect(fetched.reduce((sum, count) => sum + count, 0)).toBeLessThanOrEqual(25 + statuses.length - 1);
    expect(await outputsOf(id)).toEqual({ Pages: '25' });
  });

  it('runs an unfinished outer iteration again from its start, and reuses the completed ones and the branch that completed', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    // Group 2 fails at its third page.
    pages.failFrom.set('nested', 22);
    const first = await stack.startRun('/Redrive/Nested', alice, { BaseURL: `${pages.url}/nested` });
    expect(await stack.waitForEnd(first, alice, 30_000)).toMatchObject({ status: 'ERROR' });
    pages.failFrom.delete('nested');
    const fetched = () => pages.fetched('nested', [0, 3, 10, 13, 20, 21, 22, 23, 5]);
    expect(fetched()).toEqual([1, 1, 1, 1, 1, 1, 1, 0, 1]);
    const second = await redrive(first);
    expect(await stack.waitForEnd(second, alice, 30_000)).toMatchObject({ status: 'SUCCESS' });
    // Groups 0 and 1 and the side branch are reused; group 2 ran again from its start.
    expect(fetched()).toEqual([1, 1, 1, 1, 2, 2, 2, 1, 1]);
    expect(await outputsOf(second)).toEqual({ Groups: '3' });
  });

  it('reuses a child that succeeded and redrives the one that failed, from where it failed', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    pages.failFrom.set('family', 3);
    const first = await stack.startRun('/Redrive/Parent', alice, { BaseURL: `${pages.url}/family` });
    const failed = await stack.waitForEnd(first, alice, 30_000);
    expect(failed).toMatchObject({ status: 'ERROR', lasterror: expect.stringContaining('child execution') });
    const failedChild = /child execution ([0-9a-f]{32})/.exec(failed.lasterror ?? '')?.[1] ?? '';
    expect(pages.fetched('family', [0, 1, 2, 3])).toEqual([1, 1, 1, 1]);
    pages.failFrom.delete('family');
    const second = await redrive(first);
    expect(await stack.waitForEnd(second, alice, 30_000)).toMatchObject({ status: 'SUCCESS' });
    // The first child is not run again; the second's redrive fetches only the page it failed at.
    expect(pages.fetched('family', [0, 1, 2, 3])).toEqual([1, 1, 1, 2]);
    const outputs = await outputsOf(second);
    expect(outputs).toMatchObject({ First: '{"page":1}', Second: '{"page":3}' });
    expect((await stack.call('GET', `/choreo-executions/${outputs.SecondId}`, alice)).json().execution).toMatchObject({
      status: 'SUCCESS',
      redriveOf: failedChild,
    });
    expect((await stack.call('GET', `/choreo-executions/${failedChild}`, alice)).json().execution).toMatchObject({
      status: 'ERROR',
      redrivenBy: outputs.SecondId,
    });
  });

  it('answers 409 to a redrive of a run that succeeded, and of one still running', { timeout: 30_000 }, async () => {
    const alice = stack.credentials.alice;
    pages.failFrom.delete('done');
    const done = await stack.startRun('/Redrive/CollectPages', alice, { BaseURL: `${pages.url}/done`, Count: '2' });
    expect(await stack.waitForEnd(done, alice, 30_000)).toMatchObject({ status: 'SUCCESS' });
    expect((await stack.call('POST', `/choreo-executions/${done}/redrive`, alice)).status).toBe(409);
    const running = await stack.startRun('/Redrive/CollectPages', alice, { BaseURL: `${pages.url}/running`, Count: '2000' });
    expect((await stack.call('POST', `/choreo-executions/${running}/redrive`, alice)).status).toBe(409);
    expect((await stack.call('DELETE', `/choreo-executions/${running}`, alice)).status).toBe(204);
  });
});
