import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';
import { StepCounter } from '../support/step-counter.ts';
import { writeWorkerTestCatalogue } from '../support/worker-test-catalogue.ts';

type StepRow = Record<string, string>;

// `?view=steps`: what each execution ran, one event per attempt of each step, in order, from real
// workers through the real API; bounded (here to the first 4 and the last 40 events).
describe('step history', () => {
  const catalogue = writeWorkerTestCatalogue();
  const counter = new StepCounter();
  let stack: Stack;

  beforeAll(async () => {
    await counter.start();
    stack = await startStack({
      redisUrl: inject('redisUrl'),
      workers: 2,
      choreosDir: catalogue.dir,
      workerEnv: { STEP_HISTORY_FIRST: '4', STEP_HISTORY_LAST: '40' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
    await counter.close();
    catalogue.remove();
  });

  async function steps(id: string): Promise<{ steps: StepRow[]; dropped?: { count: string; after: string }; execution: Record<string, string> }> {
    const res = await stack.call('GET', `/choreo-executions/${id}?view=steps`, stack.credentials.alice);
    expect(res.status, res.text).toBe(200);
    return res.json();
  }

  it('shows which iteration of a loop failed, with its error, in the order the steps ran (JSON and XML)', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/LoopFailsAt', alice, { FailAt: '3' });
    const ended = await stack.waitForEnd(id, alice);
    expect(ended.status).toBe('ERROR');
    const history = await steps(id);
    expect(history.execution).toMatchObject({ id, status: 'ERROR' });
    expect(history.dropped).toBeUndefined();
    expect(history.steps.map((step) => `${step.address} ${step.outcome}`)).toEqual([
      'each[0].note succeeded',
      'each[0].check succeeded',
      'each[1].note succeeded',
      'each[1].check succeeded',
      'each[2].note succeeded',
      'each[2].check succeeded',
      'each[3].note succeeded',
      'each[3].check failed',
    ]);
    const failed = history.steps.at(-1);
    expect(failed).toMatchObject({ id: 'check', iteration: '3', attempt: '1', host: ended.host, error: 'item 3 is bad' });
    for (const step of history.steps) {
      expect(Number(step.end)).toBeGreaterThanOrEqual(Number(step.start));
      expect(Number(step.duration)).toBeGreaterThanOrEqual(0);
      expect(Number(step.start)).toBeGreaterThanOrEqual(Number(ended.starttime));
    }
    const starts = history.steps.map((step) => Number(step.start));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));

    const xml = await stack.call('GET', `/choreo-executions/${id}?view=steps`, alice, { accept: 'application/xml' });
    expect(xml.status).toBe(200);
    expect(xml.headers['content-type']).toMatch(/xml/);
    expect(xml.text).toContain(`<id>${id}</id>`);
    const addresses = [...xml.text.matchAll(/<address>([^<]*)<\/address>/g)].map(([, address]) => address);
    expect(addresses).toEqual(history.steps.map((step) => step.address));
    expect(xml.text).toMatch(
      /<step><id>check<\/id><address>each\[3\]\.check<\/address><iteration>3<\/iteration><attempt>1<\/attempt>.*<outcome>failed<\/outcome><error>item 3 is bad<\/error><\/step><\/steps>/s,
    );
  });

  it('shows each attempt of a retried step', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/Flaky', alice, { CounterURL: counter.urlFor('flaky') });
    expect((await stack.waitForEnd(id, alice)).status).toBe('SUCCESS');
    const history = await steps(id);
    expect(history.steps.map((step) => [step.address, step.attempt, step.outcome])).toEqual([
      ['flaky', '1', 'failed'],
      ['flaky', '2', 'failed'],
      ['flaky', '3', 'succeeded'],
    ]);
    expect(history.steps[0]?.error).toBeTruthy();
    expect(history.steps[0]?.iteration).toBeUndefined();
  });

  it('records the history of an instant run with its end', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/Instant', alice);
    const ended = await stack.waitForEnd(id, alice);
    expect(ended.status).toBe('SUCCESS');
    const history = await steps(id);
    expect(history.steps.map((step) => [step.address, step.attempt, step.outcome, step.host])).toEqual([
      ['first', '1', 'succeeded', ended.host],
      ['second', '1', 'succeeded', ended.host],
    ]);
  });

  it('goes on at the resumed iteration on the worker that took over after a SIGKILL, under its host', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    // Killed while iteration 5's call is in flight: iterations 0-4 are recorded by the first worker.
    counter.hold(5);
    const id = await stack.startRun('Test/CountedLoop', alice, { CounterURL: counter.urlFor('kill'), Count: '8' });
    await waitFor(() => counter.count('kill', 5) === 1, { timeoutMs: 30_000, what: 'the run to reach iteration 5' });
    const taken = await stack.executions.get(id);
    const firstHost = taken?.host ?? '';
    // While it runs, the history so far is readable.
    const sofar = await steps(id);
    expect(sofar.execution.status).toBe('RUNNING');
    expect(sofar.steps.map((step) => step.address).slice(-2)).toEqual(['each[4].call', 'each[4].pause']);
    const victim = stack.workers[Number(firstHost.split('.').at(-1)) - 1];
    if (victim === undefined) throw new Error(`no worker for host ${firstHost}`);
    victim.kill('SIGKILL');
    await victim.exited;
    counter.release(5);

    const ended = await stack.waitForEnd(id, alice, 60_000);
    expect(ended.status).toBe('SUCCESS');
    expect(ended.host).not.toBe(firstHost);
    const history = await steps(id);
    const rows = history.steps.map((step) => `${step.address} ${step.attempt} ${step.host}`);
    const before = Array.from({ length: 5 }, (_, n) => [`each[${n}].call 1 ${firstHost}`, `each[${n}].pause 1 ${firstHost}`]).flat();
    // The call the kill interrupted never ended there: it shows once, run again by the new holder.
    const after = [5, 6, 7].flatMap((n) => [`each[${n}].call 1 ${ended.host}`, `each[${n}].pause 1 ${ended.host}`]);
    expect(rows).toEqual([...before, ...after, `after 1 ${ended.host}`]);
  });

  it('keeps the first and the last events past its bound, saying how many it dropped and where', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/CountedLoop', alice, { CounterURL: counter.urlFor('bound'), Count: '30' });
    expect((await stack.waitForEnd(id, alice, 45_000)).status).toBe('SUCCESS');
    // 30 iterations of two steps, then `after`: 61 events, of which 4 + 40 are kept.
    const history = await steps(id);
    expect(history.dropped).toEqual({ count: '17', after: '4' });
    const addresses = history.steps.map((step) => step.address);
    expect(addresses.slice(0, 4)).toEqual(['each[0].call', 'each[0].pause', 'each[1].call', 'each[1].pause']);
    expect(addresses.slice(4, 6)).toEqual(['each[10].pause', 'each[11].call']);
    expect(addresses.at(-1)).toBe('after');
    expect(addresses).toHaveLength(44);
    const xml = await stack.call('GET', `/choreo-executions/${id}?view=steps`, alice, { accept: 'application/xml' });
    expect(xml.text).toContain('<dropped><count>17</count><after>4</after></dropped>');
  });

  it('is visible only to who may see the execution, and expires with its record', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const id = await stack.startRun('Test/LoopFailsAt', alice, { FailAt: '1' });
    await stack.waitForEnd(id, alice);
    const other = await stack.call('GET', `/choreo-executions/${id}?view=steps`, stack.credentials.bob);
    expect(other.status).toBe(404);
    expect(other.text).not.toContain('each[');
    // An application limited to other Choreos of the same account does not see it either.
    expect((await stack.call('GET', `/choreo-executions/${id}?view=steps`, stack.credentials.encodingApp)).status).toBe(404);
    expect((await stack.call('GET', `/choreo-executions/${id}?view=nonsense`, alice)).status).toBe(400);

    const recordTtl = await stack.redis.ttl(stack.keys.execution(id));
    const historyTtl = await stack.redis.ttl(stack.keys.executionSteps(id));
    expect(recordTtl).toBeGreaterThan(0);
    expect(Math.abs(historyTtl - recordTtl)).toBeLessThanOrEqual(1);
    // Gone with the record: the view answers 404, whatever is left of the list.
    await stack.redis.del(stack.keys.execution(id));
    expect((await stack.call('GET', `/choreo-executions/${id}?view=steps`, alice)).status).toBe(404);
  });
});
