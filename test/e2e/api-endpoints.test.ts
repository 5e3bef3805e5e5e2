import { waitFor } from '@ces/testing';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Credential, type Stack } from '../support/stack.ts';

// Every endpoint in both formats over real HTTPS, with one real worker process that runs one
// execution at a time — so a second run waits in the queue, which termination needs.
const xml = new XMLParser({ parseTagValue: false, isArray: (name) => ['resource', 'input', 'output', 'execution'].includes(name) });
const ENCODE = '/choreos/Library/Utilities/Encoding/Base64Encode';
const COUNTDOWN = '/choreos/Library/Utilities/Development/Countdown';
const FAIL = '/choreos/Library/Utilities/Development/Fail';
const countdown = (stepMs: number) => JSON.stringify({ inputs: [{ name: 'StepMilliseconds', value: String(stepMs) }] });

describe('the six endpoints end to end', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({
      redisUrl: inject('redisUrl'),
      workers: 1,
      env: { SYNC_WAIT_SECONDS: '1', RETENTION_SECONDS: '300', MAX_RUNNING_PER_ACCOUNT: '3' },
      workerEnv: { WORKER_CONCURRENCY: '1' },
    });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  const status = async (id: string, query = '') => (await stack.call('GET', `/choreo-executions/${id}${query}`, stack.credentials.alice)).json();

  async function runAsync(path: string, body: string, credential: Credential = stack.credentials.alice): Promise<string> {
    const res = await stack.call('POST', `${path}?mode=async`, credential, { body });
    expect(res.status, res.text).toBe(202);
    return res.json().id;
  }

  it('lists Choreos and shows one, in JSON and XML', async () => {
    const list = await stack.call('GET', '/choreos', stack.credentials.alice);
    expect(list.status).toBe(200);
    expect(list.json().resources).toContain('/Library/Utilities/Development/Countdown');
    const listXml = await stack.call('GET', '/choreos', stack.credentials.alice, { accept: 'application/xml' });
    expect(listXml.headers['content-type']).toContain('application/xml');
    expect(xml.parse(listXml.text).resources.resource).toEqual(list.json().resources);

    const details = await stack.call('GET', ENCODE, stack.credentials.alice);
    expect(details.json()).toMatchObject({
      valid: 'true',
      inputs: { Text: { type: 'STRING_VARIABLE' } },
      outputs: { Base64EncodedText: { type: 'STRING_VARIABLE' } },
    });
    const detailsXml = xml.parse((await stack.call('GET', ENCODE, stack.credentials.alice, { accept: 'application/xml' })).text);
    expect(detailsXml.choreo.inputs.input[0]).toMatchObject({ name: 'Text', type: 'STRING_VARIABLE' });
  });

  it('runs synchronously in JSON: 200 with {output, execution}', async () => {
    const res = await stack.call('POST', ENCODE, stack.credentials.alice, { body: JSON.stringify({ inputs: [{ name: 'Text', value: 'héllo ✓' }] }) });
    expect(res.status, res.text).toBe(200);
    const { output, execution } = res.json();
    expect(output).toEqual({ Base64EncodedText: Buffer.from('héllo ✓').toString('base64') });
    expect(Object.keys(execution).sort()).toEqual(['endtime', 'id', 'starttime', 'status']);
    expect(execution).toMatchObject({ status: 'SUCCESS', starttime: expect.stringMatching(/^\d+$/), endtime: expect.stringMatching(/^\d+$/) });
  });

  it('runs synchronously in XML: <execution> with <outputs>', async () => {
    const res = await stack.call('POST', ENCODE, stack.credentials.alice, {
      accept: 'application/xml',
      headers: { 'content-type': 'application/xml' },
      body: '<inputs><input><name>Text</name><value>a &lt;b&gt; &#x263A;</value></input></inputs>',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.headers['content-type']).toContain('application/xml');
    const execution = xml.parse(res.text).execution[0];
    expect(execution).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{32}$/), status: 'SUCCESS', endtime: expect.stringMatching(/^\d+$/) });
    expect(execution.outputs.output).toEqual([{ name: 'Base64EncodedText', value: Buffer.from('a <b> ☺').toString('base64') }]);
  });

  it('answers a failed run with 200 and status ERROR, and its status with lasterror and errortime', async () => {
    const res = await stack.call('POST', FAIL, stack.credentials.alice, { body: JSON.stringify({ inputs: [{ name: 'Message', value: 'no luck' }] }) });
    expect(res.status, res.text).toBe(200);
    const { execution } = res.json();
    // The specification's fields, and why it failed, which the original's SDKs read from the run response.
    expect(Object.keys(execution).sort()).toEqual(['endtime', 'errortime', 'id', 'lasterror', 'starttime', 'status']);
    expect(execution.status).toBe('ERROR');
    const { execution: stored } = await status(execution.id);
    expect(stored).toMatchObject({
      status: 'ERROR',
      lasterror: expect.stringContaining('no luck'),
      errortime: expect.stringMatching(/^\d+$/),
      endtime: execution.endtime,
    });
    expect(execution).toMatchObject({ lasterror: stored.lasterror, errortime: stored.errortime });
    const storedXml = xml.parse((await stack.call('GET', `/choreo-executions/${execution.id}`, stack.credentials.alice, { accept: 'application/xml' })).text);
    expect(storedXml.execution[0]).toMatchObject({ status: 'ERROR', lasterror: stored.lasterror, errortime: stored.errortime });
  });

  it('runs with ?mode=async, records source_id, and gives outputs with ?view=outputs in JSON and XML', async () => {
    const res = await stack.call('POST', `${ENCODE}?mode=async&source_id=legacy-client&store_results=true`, stack.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'later' }] }),
    });
    expect(res.status).toBe(202);
    const { id, execution } = res.json();
    expect(execution).toMatchObject({ id, status: 'RUNNING' });
    expect(res.headers.location).toBe(`/service-api/1.0/choreo-executions/${id}`);
    expect(await stack.redis.hget(`${stack.prefix}:exec:${id}`, 'source')).toBe('legacy-client');

    await stack.waitForEnd(id, stack.credentials.alice);
    const done = await status(id, '?view=outputs');
    expect(done).toEqual({
      execution: {
        id,
        choreo: '/Library/Utilities/Encoding/Base64Encode',
        status: 'SUCCESS',
        host: '10.0.0.1',
        starttime: expect.any(String),
        endtime: expect.any(String),
      },
      output: { Base64EncodedText: Buffer.from('later').toString('base64') },
    });
    const doneXml = xml.parse((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, stack.credentials.alice, { accept: 'application/xml' })).text);
    expect(doneXml.execution[0].outputs.output).toEqual([{ name: 'Base64EncodedText', value: done.output.Base64EncodedText }]);
  });

  it('runs with Prefer: respond-async, answering in XML', async () => {
    const res = await stack.call('POST', ENCODE, stack.credentials.alice, {
      accept: 'application/xml',
      headers: { prefer: 'respond-async' },
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
    });
    expect(res.status).toBe(202);
    expect(res.headers['preference-applied']).toBe('respond-async');
    const execution = xml.parse(res.text).execution[0];
    expect(execution.status).toBe('RUNNING');
    expect(res.headers.location).toBe(`/service-api/1.0/choreo-executions/${execution.id}`);
    expect((await stack.waitForEnd(execution.id, stack.credentials.alice)).status).toBe('SUCCESS');
  });

  it('answers a synchronous run past SYNC_WAIT_SECONDS with 202, and the run goes on to the end', async () => {
    const res = await stack.call('POST', COUNTDOWN, stack.credentials.alice, { body: countdown(300) });
    expect(res.status, res.text).toBe(202);
    const { id, execution } = res.json();
    expect(execution.status).toBe('RUNNING');
    const followed = await stack.http.request('GET', res.headers.location as string, {
      headers: {
        authorization: `Basic ${Buffer.from(`alice:${stack.credentials.alice.secret}`).toString('base64')}`,
        'x-service-domain': 'acme/master',
      },
    });
    expect(followed.json().execution.id).toBe(id);
    expect(await stack.waitForEnd(id, stack.credentials.alice)).toMatchObject({ status: 'SUCCESS' });
    expect((await status(id, '?view=outputs')).output).toEqual({ CompletedSteps: '10' });
  });

  it('lists running executions with their host, "" while queued, and terminates queued and executing runs', async () => {
    const executing = await runAsync(COUNTDOWN, countdown(1000));
    await waitFor(async () => (await status(executing)).execution.host === '10.0.0.1', { what: 'the worker to take the run' });
    const queued = await runAsync(COUNTDOWN, countdown(1000));

    const { executions } = (await stack.call('GET', '/choreo-executions', stack.credentials.alice)).json();
    expect(executions).toEqual(
      expect.arrayContaining([
        { id: executing, choreo: '/Library/Utilities/Development/Countdown', starttime: expect.any(String), host: '10.0.0.1', status: 'RUNNING' },
        { id: queued, choreo: '/Library/Utilities/Development/Countdown', starttime: expect.any(String), host: '', status: 'RUNNING' },
      ]),
    );
    const listXml = xml.parse((await stack.call('GET', '/choreo-executions', stack.credentials.alice, { accept: 'application/xml' })).text);
    expect(listXml.executions.execution.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining([executing, queued]));

    // Waiting in the queue: removed and ended at once.
    const dropQueued = await stack.call('DELETE', `/choreo-executions/${queued}`, stack.credentials.alice, { accept: 'application/xml' });
    expect(dropQueued.status).toBe(204);
    expect(dropQueued.text).toBe('');
    expect((await status(queued)).execution).toMatchObject({ status: 'TERMINATED_MANUALLY', host: '' });
    expect((await stack.call('DELETE', `/choreo-executions/${queued}`, stack.credentials.alice)).status).toBe(204);

    // Executing: ends after its current step, keeping the outputs computed so far.
    expect((await stack.call('DELETE', `/choreo-executions/${executing}`, stack.credentials.alice)).status).toBe(204);
    expect(await stack.waitForEnd(executing, stack.credentials.alice)).toMatchObject({ status: 'TERMINATED_MANUALLY', host: '10.0.0.1' });
    expect(Number((await status(executing, '?view=outputs')).output.CompletedSteps)).toBeLessThan(10);
    expect((await stack.call('DELETE', `/choreo-executions/${executing}`, stack.credentials.alice)).status).toBe(204);
    const listed = (await stack.call('GET', '/choreo-executions', stack.credentials.alice)).json().executions.map((e: { id: string }) => e.id);
    expect(listed).not.toContain(executing);
    expect(listed).not.toContain(queued);
  });

  it('refuses to terminate an execution that ended otherwise with 409', async () => {
    const res = await stack.call('POST', ENCODE, stack.credentials.alice, { body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }) });
    const { id } = res.json().execution;
    const conflict = await stack.call('DELETE', `/choreo-executions/${id}`, stack.credentials.alice);
    expect(conflict.status).toBe(409);
    expect(conflict.json().error.code).toBe('CONFLICT');
    expect((await status(id)).execution.status).toBe('SUCCESS');
  });

  it('keeps completed executions for RETENTION_SECONDS and running ones for ever', async () => {
    const running = await runAsync(COUNTDOWN, countdown(1000));
    expect(await stack.redis.ttl(`${stack.prefix}:exec:${running}`)).toBe(-1);
    expect((await stack.call('DELETE', `/choreo-executions/${running}`, stack.credentials.alice)).status).toBe(204);
    await stack.waitForEnd(running, stack.credentials.alice);
    const ttl = await stack.redis.ttl(`${stack.prefix}:exec:${running}`);
    expect(ttl).toBeGreaterThan(290);
    expect(ttl).toBeLessThanOrEqual(300);
  });

  it('answers 429 with Retry-After beyond MAX_RUNNING_PER_ACCOUNT, per account', async () => {
    const { bob } = stack.credentials;
    const ids = [];
    for (let i = 0; i < 3; i += 1) ids.push(await runAsync(COUNTDOWN, countdown(1000), bob));
    const refused = await stack.call('POST', `${COUNTDOWN}?mode=async`, bob, { body: countdown(1000) });
    expect(refused.status).toBe(429);
    expect(refused.json().error.code).toBe('TOO_MANY_REQUESTS');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Another account is not affected.
    const other = await stack.call('POST', ENCODE, stack.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
      headers: { prefer: 'respond-async' },
    });
    expect(other.status).toBe(202);
    for (const id of ids) expect((await stack.call('DELETE', `/choreo-executions/${id}`, bob)).status).toBe(204);
    for (const id of ids) await stack.waitForEnd(id, bob);
    expect((await stack.call('POST', `${ENCODE}?mode=async`, bob, { body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }) })).status).toBe(202);
  });
});
