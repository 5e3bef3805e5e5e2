import { newExecutionFixture } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// What GET …/choreo-executions/<id>/events refuses, each in the one error shape, in JSON whatever
// the client accepts (an event stream client accepts text/event-stream only).
const A = '/Library/Utilities/Encoding/Base64Encode';
const SSE = { accept: 'text/event-stream' };

describe('run events refused', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  const errorOf = async (res: Response) => {
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    return ((await res.json()) as { error: { code: string } }).error.code;
  };

  it('answers 404 for an unknown id and for one that is no id at all', async () => {
    const unknown = await t.call('GET', `/choreo-executions/${'0'.repeat(32)}/events`, t.credentials.alice, SSE);
    expect(unknown.status).toBe(404);
    expect(await errorOf(unknown)).toBe('NOT_FOUND');
    const malformed = await t.call('GET', '/choreo-executions/not-an-id/events', t.credentials.alice, SSE);
    expect(malformed.status).toBe(404);
  });

  it('answers 400 for a Last-Event-ID that is no event id', async () => {
    const execution = newExecutionFixture({ account: 'acme', choreo: A });
    await t.executions.accept(execution, { maxRunningPerAccount: 0 });
    const res = await t.call('GET', `/choreo-executions/${execution.id}/events`, t.credentials.alice, { ...SSE, headers: { 'last-event-id': 'yesterday' } });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toBe('BAD_REQUEST');
  });

  it('answers 401 to wrong credentials and 405 to another method', async () => {
    const id = '0'.repeat(32);
    const wrong = await t.call('GET', `/choreo-executions/${id}/events`, { ...t.credentials.alice, secret: 'wrong' }, SSE);
    expect(wrong.status).toBe(401);
    expect(await errorOf(wrong)).toBe('UNAUTHORIZED');
    const posted = await t.call('POST', `/choreo-executions/${id}/events`, t.credentials.alice, SSE);
    expect(posted.status).toBe(405);
    expect(posted.headers.get('allow')).toBe('GET');
  });
});
