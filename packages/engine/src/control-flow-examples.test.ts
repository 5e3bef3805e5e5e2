import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bindInputs } from '@ces/language';
import { createStepLibrary } from '@ces/steps';
import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import { runChoreo } from './run-choreo.ts';
import type { CheckpointDelta, RunOutcome } from './run-choreo.ts';

/** The control-flow examples of the catalogue, run through the engine against a local HTTP server. */

// A short HTTP timeout, so that the timeout case of FetchWithFallback is quick.
const steps = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 300, maxResponseBytes: 1024 * 1024 } });
let catalogue: Catalogue;
let server: Server;
let base = '';
/** Requests by path, and the most that were in flight at once. */
const requests = new Map<string, number>();
let inFlight = 0;
let mostInFlight = 0;
/** A port where nothing listens. */
let refusedUrl = '';

async function run(id: string, provided: Record<string, string>): Promise<{ outcome: RunOutcome; deltas: CheckpointDelta[] }> {
  const entry = catalogue.get(`/Library/Examples/${id}`);
  if (entry === undefined || !entry.valid) throw new Error(`${id} is not a valid Choreo: ${entry && !entry.valid ? entry.problems.join('; ') : 'missing'}`);
  const bound = bindInputs(entry.definition, provided);
  if (!bound.ok) throw new Error(`${id}: missing ${bound.missing.join(', ')}`);
  const deltas: CheckpointDelta[] = [];
  const outcome = await runChoreo({
    definition: entry.definition,
    inputs: bound.inputs,
    steps,
    hooks: {
      beforeStep: () => undefined,
      afterStep: async () => undefined,
      afterProgress: async (delta) => {
        deltas.push(delta);
        return undefined;
      },
    },
  });
  return { outcome, deltas };
}

beforeAll(async () => {
  catalogue = await loadCatalogue(fileURLToPath(new URL('../../../choreos', import.meta.url)), steps);
  server = createServer((request, response) => {
    const path = request.url ?? '';
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const [, route = '', value = ''] = path.split('/');
    if (route === 'pages') {
      const page = Number(value);
      const pages = [
        { items: [1, 2], next: `${base}/pages/1` },
        { items: [{ a: 3 }, [4, 5]], next: `${base}/pages/2` },
        { items: [], next: `${base}/pages/3` },
        { items: ['six'], next: null },
      ];
      response.setHeader('content-type', 'application/json');
      response.end(JSON.stringify(pages[page]));
      return;
    }
    if (route === 'status') {
      response.writeHead(Number(value)).end(`status ${value}`);
      return;
    }
    if (route === 'slow') {
      inFlight += 1;
      mostInFlight = Math.max(mostInFlight, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        response.end(`slow ${value}`);
      }, 40);
      return;
    }
    if (route === 'hang') return;
    response.end(`hello from ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('CollectPages', () => {
  it('collects the items of every page in order, one checkpointed iteration per page', async () => {
    const { outcome, deltas } = await run('CollectPages', { URL: `${base}/pages/0` });
    expect(outcome).toMatchObject({ kind: 'completed', checkpoint: { outputs: { PageCount: '4' } } });
    expect(JSON.parse(outcome.checkpoint.outputs.Items ?? '')).toEqual([1, 2, { a: 3 }, [4, 5], 'six']);
    const iterations = deltas.flatMap((delta) => delta.entries.map(([address]) => address)).filter((address) => /^pages\[\d+\]$/.test(address));
    // The last iteration's entry is left to the checkpoint after the loop.
    expect(iterations).toEqual(['pages[0]', 'pages[1]', 'pages[2]']);
  });

  it('fails on a page that did not answer 2xx, saying which', async () => {
    const { outcome } = await run('CollectPages', { URL: `${base}/status/503` });
    expect(outcome).toMatchObject({ kind: 'failed', error: `pages[0].refused: page 0 (${base}/status/503) answered HTTP 503` });
  });
});

describe('FetchAll', () => {
  it('fetches every URL, at most Concurrency at once, statuses and bodies in input order', async () => {
    mostInFlight = 0;
    const urls = [...Array.from({ length: 10 }, (_, index) => `${base}/slow/${index}`), `${base}/status/404`];
    const { outcome } = await run('FetchAll', { URLs: JSON.stringify(urls), Concurrency: '3' });
    expect(outcome.kind).toBe('completed');
    expect(mostInFlight).toBe(3);
    expect(JSON.parse(outcome.checkpoint.outputs.Statuses ?? '')).toEqual([...Array.from({ length: 10 }, () => 200), 404]);
    expect(JSON.parse(outcome.checkpoint.outputs.Bodies ?? '')).toEqual([...Array.from({ length: 10 }, (_, index) => `slow ${index}`), 'status 404']);
  });

  it('runs five at once by default and answers an empty list with empty lists', async () => {
    mostInFlight = 0;
    const { outcome } = await run('FetchAll', { URLs: JSON.stringify(Array.from({ length: 12 }, (_, index) => `${base}/slow/d${index}`)) });
    expect(mostInFlight).toBe(5);
    expect(JSON.parse(outcome.checkpoint.outputs.Statuses ?? '')).toHaveLength(12);
    const empty = await run('FetchAll', { URLs: '[]' });
    expect(empty.outcome.checkpoint.outputs).toEqual({ Statuses: '[]', Bodies: '[]' });
  });

  it('refuses a concurrency out of bounds', async () => {
    const { outcome } = await run('FetchAll', { URLs: JSON.stringify([`${base}/a`]), Concurrency: '0' });
    expect(outcome).toMatchObject({ kind: 'failed', error: 'each: concurrency must be a whole number from 1 to 100, not "0"' });
  });
});

describe('FetchWithFallback', () => {
  it('returns the body of a 2xx answer', async () => {
    const { outcome } = await run('FetchWithFallback', { URL: `${base}/ok` });
    expect(outcome.checkpoint.outputs).toEqual({ Result: 'hello from /ok' });
  });

  it('returns the fallback for an error status, a refused connection and a timeout after retries', async () => {
    expect((await run('FetchWithFallback', { URL: `${base}/status/500`, Fallback: 'plan B' })).outcome.checkpoint.outputs).toEqual({ Result: 'plan B' });
    expect((await run('FetchWithFallback', { URL: refusedUrl })).outcome.checkpoint.outputs).toEqual({ Result: 'fallback' });
    const timedOut = await run('FetchWithFallback', { URL: `${base}/hang/1` });
    expect(timedOut.outcome).toMatchObject({ kind: 'completed', checkpoint: { outputs: { Result: 'fallback' } } });
    expect(requests.get('/hang/1')).toBe(3);
  });
});
