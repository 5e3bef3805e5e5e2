import { openRunInputs, type SecretCipher } from '@ces/store';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { failedRun } from './test-support/failed-runs.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// POST /choreo-executions/<id>/redrive: a new execution of a failed run, from what it completed.
const ENCODE = '/Library/Utilities/Encoding/Base64Encode';
const NO_OP_LOOP = '/Library/Utilities/Development/NoOpLoop';

describe('redrive', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  const redrive = (id: string, options: { body?: string; headers?: Record<string, string> } = {}) =>
    t.call('POST', `/choreo-executions/${id}/redrive`, t.credentials.alice, options);

  it('answers 202 as an async run, with a new RUNNING execution that names the one it redrives, which keeps its status', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'hello' } });
    const res = await redrive(failed);
    expect(res.status).toBe(202);
    const body = (await res.json()) as { id: string; execution: Record<string, string> };
    expect(body.execution).toMatchObject({ id: body.id, choreo: ENCODE, status: 'RUNNING', redriveOf: failed });
    expect(res.headers.get('location')).toBe(`/service-api/1.0/choreo-executions/${body.id}`);
    expect(await t.executions.get(body.id)).toMatchObject({ inputs: { Text: 'hello', URL: '' }, redriveOf: failed, status: 'RUNNING' });

    const old = await t.call('GET', `/choreo-executions/${failed}`, t.credentials.alice);
    expect(((await old.json()) as { execution: Record<string, string> }).execution).toMatchObject({
      status: 'ERROR',
      lasterror: 'convert: the far side failed',
      redrivenBy: body.id,
    });
  });

  it('starts from the failed run’s progress, without what did not complete', async () => {
    const failed = await failedRun(t, {
      choreo: NO_OP_LOOP,
      inputs: { Iterations: '3' },
      entries: [
        ['loop[0]', null],
        ['loop[1].nothing', null],
        ['loop[1].nothing!', { type: 'retryable', message: 'down', step: 'loop[1].nothing' }],
      ],
    });
    const res = await redrive(failed);
    const { id } = (await res.json()) as { id: string };
    expect(await t.executions.get(id)).toMatchObject({ nextStep: 0, results: {}, progressCursor: 'loop[0]' });
    expect(await t.executions.progress(id)).toEqual(new Map([['loop[0]', null]]));
  });

  it('takes inputs from the body, JSON or XML, over the run’s own', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'old' } });
    const json = await redrive(failed, { body: JSON.stringify({ inputs: [{ name: 'Text', value: 'new' }] }) });
    const first = (await json.json()) as { id: string };
    expect(await t.executions.get(first.id)).toMatchObject({ inputs: { Text: 'new', URL: '' } });
    // The first redrive has not ended: end it, as its worker would, before the next.
    await t.executions.end(first.id, { status: 'ERROR', error: 'again' });

    const xml = await redrive(failed, {
      body: '<inputs><input><name>URL</name><value>https://example.com/</value></input></inputs>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(xml.status).toBe(202);
    const second = xml.headers.get('location')?.split('/').at(-1) ?? '';
    expect(await t.executions.get(second)).toMatchObject({ inputs: { Text: 'old', URL: 'https://example.com/' }, redriveOf: failed });
    expect(await t.executions.summary(failed, { withOutputs: false })).toMatchObject({ redrivenBy: second });
  });

  it('redrives a redrive that failed in turn, and a run that ran out of time', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'a' } });
    const first = ((await (await redrive(failed)).json()) as { id: string }).id;
    await t.executions.end(first, { status: 'ERROR', error: 'still failing' });
    const second = await redrive(first);
    expect(second.status).toBe(202);
    expect(((await second.json()) as { execution: { redriveOf: string } }).execution.redriveOf).toBe(first);

    const limited = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'b' }, status: 'TERMINATED_LIMIT' });
    expect((await redrive(limited)).status).toBe(202);
  });

  it('answers a repeated request with the same Idempotency-Key with the first redrive', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'k' } });
    const headers = { 'idempotency-key': `redrive-${failed}` };
    const first = await redrive(failed, { headers });
    const again = await redrive(failed, { headers });
    expect(again.status).toBe(202);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as { id: string }).id).toBe(((await first.json()) as { id: string }).id);
  });

  it('keeps the inputs the run took from a preset sealed, bound to the redrive', async () => {
    const put = await t.call('PUT', '/presets/redrive-secret', t.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'from-preset' }] }),
    });
    expect(put.status).toBeOneOf([200, 201]);
    const res = await t.call('POST', `/choreos${ENCODE}?mode=async`, t.credentials.alice, { body: JSON.stringify({ preset: 'redrive-secret' }) });
    const { id: failed } = (await res.json()) as { id: string };
    // Ended as a reconciler would: a take here would need the key to open its inputs.
    await t.executions.end(failed, { status: 'ERROR', error: 'down' });

    const { id } = (await (await redrive(failed)).json()) as { id: string };
    const record = await t.executions.get(id);
    expect(record?.inputs).not.toHaveProperty('Text');
    expect(JSON.stringify(await t.redis.hgetall(t.keys.execution(id)))).not.toContain('from-preset');
    expect(openRunInputs(t.cipher as SecretCipher, id, record?.sealedInputs ?? '')).toEqual({ Text: 'from-preset' });
  });

  it('is described in the OpenAPI document, with its answers', async () => {
    const res = await t.app.request('/service-api/1.0/openapi.json');
    const document = (await res.json()) as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>> };
    const operation = document.paths['/service-api/1.0/choreo-executions/{id}/redrive']?.post;
    expect(operation?.operationId).toBe('redriveExecution');
    expect(Object.keys(operation?.responses ?? {})).toEqual(expect.arrayContaining(['202', '404', '409', '413', '415']));
  });
});
