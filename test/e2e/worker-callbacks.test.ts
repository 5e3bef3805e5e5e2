import { randomBytes } from 'node:crypto';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const PUBLIC_BASE_URL = 'https://choreos.test';
const APPROVAL = 'Library/Examples/WaitForApproval';

// The example that waits for a call back, run by real workers, with the call back made to the API
// over HTTPS (at the path of the URL the run made: the address is the service's public one).
describe('waiting for a call back', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, env: { PUBLIC_BASE_URL }, workerEnv: { WORKER_CONCURRENCY: '2' } });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const outputsOf = async (id: string) => (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, stack.credentials.alice)).json().output;
  const callBack = (url: string, body: unknown, headers: Record<string, string> = {}) =>
    stack.http.request('POST', new URL(url).pathname, { body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });

  /** What GET /ops/executions and /metrics count as waiting: in all, and for a time or a call back. */
  async function waitingCounts() {
    const operator = { authorization: `Basic ${Buffer.from(`${stack.credentials.operator.name}:${stack.credentials.operator.secret}`).toString('base64')}` };
    const { waiting, waitingForCallBack } = (await stack.http.request('GET', '/ops/executions', { headers: operator })).json().executions;
    const metrics = (await stack.http.request('GET', '/metrics', { headers: operator })).text;
    const gauge = (label: string) => Number(new RegExp(`^ces_executions_waiting\\{[^}]*for="${label}"[^}]*\\} (\\d+)$`, 'm').exec(metrics)?.[1]);
    return { waiting, waitingForCallBack, forTime: gauge('time'), forCallBack: gauge('call-back') };
  }

  /** Starts a run and resolves with its id and the URL among its outputs once it waits. */
  async function startWaiting(timeoutSeconds = '3600'): Promise<{ id: string; url: string }> {
    const id = await stack.startRun(APPROVAL, stack.credentials.alice, { TimeoutSeconds: timeoutSeconds });
    const url = await waitFor(async () => ((await outputsOf(id))?.ApprovalURL as string) || undefined, {
      timeoutMs: 20_000,
      what: 'the URL among the outputs',
    });
    return { id, url };
  }

  it('resumes the run with the body posted, and refuses the URL once used', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const { id, url } = await startWaiting();
    expect(url).toMatch(new RegExp(`^${PUBLIC_BASE_URL}/run-callbacks/[A-Za-z0-9_-]{43}$`));
    // Waiting, it holds no worker and is RUNNING on no host.
    expect((await stack.call('GET', `/choreo-executions/${id}`, alice)).json().execution).toMatchObject({ status: 'RUNNING', host: '' });
    expect(await stack.redis.zscore(`${stack.prefix}:waiting`, id)).not.toBeNull();
    // Another account cannot read it, nor its URL.
    expect((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, stack.credentials.bob)).status).toBe(404);
    // Operations count it apart, as waiting for a call back.
    expect(await waitingCounts()).toEqual({ waiting: 1, waitingForCallBack: 1, forTime: 0, forCallBack: 1 });

    const delivered = await callBack(url, { decision: 'approved' });
    expect(delivered.status, delivered.text).toBe(202);
    expect((await stack.waitForEnd(id, alice)).status).toBe('SUCCESS');
    expect(await outputsOf(id)).toEqual({ ApprovalURL: url, Decision: 'approved' });

    expect(await waitingCounts()).toEqual({ waiting: 0, waitingForCallBack: 0, forTime: 0, forCallBack: 0 });

    const reused = await callBack(url, { decision: 'rejected' });
    expect(reused.status).toBe(404);
    expect(reused.json().error.code).toBe('NOT_FOUND');
    expect((await outputsOf(id)).Decision).toBe('approved');
  });

  it('ends with Decision "timeout" when nothing comes in time, and the URL is refused after', { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const { id, url } = await startWaiting('2');
    expect((await stack.waitForEnd(id, alice, 30_000)).status).toBe('SUCCESS');
    expect(await outputsOf(id)).toEqual({ ApprovalURL: url, Decision: 'timeout' });
    expect((await callBack(url, { decision: 'late' })).status).toBe(404);
  });

  it('refuses forged URLs, whatever the credentials', { timeout: 60_000 }, async () => {
    const { id, url } = await startWaiting();
    const forged = `${PUBLIC_BASE_URL}/run-callbacks/${randomBytes(32).toString('base64url')}`;
    expect((await callBack(forged, { decision: 'forged' })).status).toBe(404);
    expect((await callBack(`${PUBLIC_BASE_URL}/run-callbacks/short`, { decision: 'forged' })).status).toBe(404);
    // One character changed.
    const tampered = url.slice(0, -1) + (url.endsWith('A') ? 'B' : 'A');
    expect((await callBack(tampered, { decision: 'forged' })).status).toBe(404);
    // An account's credentials open nothing either.
    const bob = stack.credentials.bob;
    const withCredentials = await callBack(
      forged,
      { decision: 'forged' },
      { authorization: `Basic ${Buffer.from(`${bob.name}:${bob.secret}`).toString('base64')}` },
    );
    expect(withCredentials.status).toBe(404);
    expect((await stack.http.request('GET', new URL(url).pathname)).status).toBe(405);
    // The run still waits, and its real URL still works.
    expect((await stack.call('GET', `/choreo-executions/${id}`, stack.credentials.alice)).json().execution.status).toBe('RUNNING');
    expect((await callBack(url, { decision: 'real' })).status).toBe(202);
    expect((await stack.waitForEnd(id, stack.credentials.alice)).status).toBe('SUCCESS');
    expect((await outputsOf(id)).Decision).toBe('real');
  });

  it("keeps a call back's URL for its own wait when another branch's wait is due first", { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const both = {
      description: 'Waits for a call back beside a shorter wait.',
      outputs: {},
      steps: [
        {
          id: 'both',
          parallel: [
            [{ id: 'pause', kind: 'control.wait', args: { milliseconds: '60000' } }],
            [{ id: 'ask', kind: 'control.waitForCallback', args: { timeoutSeconds: '3600' } }],
          ],
        },
      ],
    };
    const put = await stack.call('PUT', '/choreos/Mine/CallBackBeside', alice, { body: JSON.stringify(both) });
    expect(put.status, put.text).toBeOneOf([200, 201]);
    const id = await stack.startRun('/Mine/CallBackBeside', alice);
    // The run is due when the shorter wait ends (a minute); the call back's entry lives as long as
    // its own wait (an hour), within the run's time limit (15 minutes), not only until then.
    const due = await waitFor(async () => (await stack.redis.zscore(`${stack.prefix}:waiting`, id)) ?? undefined, {
      timeoutMs: 20_000,
      what: 'the suspension',
    });
    expect(Number(due) - Date.now()).toBeLessThan(70_000);
    const [entry] = await stack.redis.keys(`${stack.prefix}:callback:*`);
    expect(entry).toBeDefined();
    expect(await stack.redis.pttl(entry as string)).toBeGreaterThan(600_000);
    expect((await stack.call('DELETE', `/choreo-executions/${id}`, alice)).status).toBeLessThan(300);
    await stack.waitForEnd(id, alice);
  });

  it("shows the URL of a wait inside a loop while it waits, then the next iteration's new one", { timeout: 60_000 }, async () => {
    const alice = stack.credentials.alice;
    const approvals = {
      description: 'Asks for two approvals in turn.',
      outputs: {
        ApprovalURL: {
          description: 'The URL of the approval waited for.',
          type: 'STRING_VARIABLE',
          value: "{% $exists(steps.each[-1].url) and $not($exists(steps.each[-1].body)) ? steps.each[-1].url : '' %}",
        },
        Decisions: {
          description: 'The decisions so far.',
          type: 'STRING_VARIABLE',
          value: "{% $exists(steps.each.body) ? $join(steps.each.body.decision, ',') : '' %}",
        },
      },
      steps: [{ id: 'each', forEach: '["first","second"]', steps: [{ id: 'ask', kind: 'control.waitForCallback', args: { timeoutSeconds: '3600' } }] }],
    };
    const put = await stack.call('PUT', '/choreos/Mine/TwoApprovals', alice, { body: JSON.stringify(approvals) });
    expect(put.status, put.text).toBeOneOf([200, 201]);
    const id = await stack.startRun('/Mine/TwoApprovals', alice);
    const urlWhileWaiting = (previous?: string) =>
      waitFor(
        async () => {
          const url = (await outputsOf(id))?.ApprovalURL as string | undefined;
          return url && url !== previous ? url : undefined;
        },
        { timeoutMs: 20_000, what: 'a new URL among the outputs' },
      );

    const first = await urlWhileWaiting();
    expect(first).toMatch(new RegExp(`^${PUBLIC_BASE_URL}/run-callbacks/[A-Za-z0-9_-]{43}$`));
    expect((await stack.call('GET', `/choreo-executions/${id}`, alice)).json().execution).toMatchObject({ status: 'RUNNING', host: '' });
    expect((await callBack(first, { decision: 'yes' })).status).toBe(202);

    const second = await urlWhileWaiting(first);
    expect(second).toMatch(new RegExp(`^${PUBLIC_BASE_URL}/run-callbacks/[A-Za-z0-9_-]{43}$`));
    expect(await stack.redis.zscore(`${stack.prefix}:waiting`, id)).not.toBeNull();
    expect((await callBack(first, { decision: 'again' })).status).toBe(404);
    expect((await callBack(second, { decision: 'no' })).status).toBe(202);

    expect((await stack.waitForEnd(id, alice)).status).toBe('SUCCESS');
    expect(await outputsOf(id)).toEqual({ ApprovalURL: '', Decisions: 'yes,no' });
  });

  it('ends a run whose call back races its termination with one terminal status', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    const runs = await Promise.all(Array.from({ length: 6 }, () => startWaiting()));
    const raced = await Promise.all(
      runs.map(async ({ id, url }, i) => {
        const [deleted, called] =
          i % 2 === 0
            ? await Promise.all([stack.call('DELETE', `/choreo-executions/${id}`, alice), callBack(url, { decision: 'raced' })])
            : await Promise.all([callBack(url, { decision: 'raced' }), stack.call('DELETE', `/choreo-executions/${id}`, alice)]).then(
                ([c, d]) => [d, c] as const,
              );
        return { id, deleted: deleted.status, called: called.status };
      }),
    );
    for (const { id, deleted, called } of raced) {
      const ended = await stack.waitForEnd(id, alice, 30_000);
      // 204 promised a termination; 409 said the run had already ended (the call back won).
      expect([204, 409]).toContain(deleted);
      expect([202, 409]).toContain(called);
      expect(ended.status).toBe(deleted === 204 ? 'TERMINATED_MANUALLY' : 'SUCCESS');
    }
    for (const { id, deleted } of raced) {
      expect((await stack.call('GET', `/choreo-executions/${id}`, alice)).json().execution.status).toBe(deleted === 204 ? 'TERMINATED_MANUALLY' : 'SUCCESS');
    }
    // Terminated or resumed, none is counted as waiting any more.
    expect(await waitingCounts()).toEqual({ waiting: 0, waitingForCallBack: 0, forTime: 0, forCallBack: 0 });
  });
});
