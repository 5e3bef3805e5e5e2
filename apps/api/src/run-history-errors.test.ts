import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// The run history refuses bad parameters with 400 in the one error shape.
describe('run history: bad parameters', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  it.each([
    ['status=DONE', 'status must be one of'],
    ['limit=0', 'limit must be 1 to 500.'],
    ['limit=501', 'limit must be 1 to 500.'],
    ['limit=ten', 'limit must be 1 to 500.'],
    ['since=yesterday', 'since must be a time in epoch milliseconds.'],
    ['until=-1', 'until must be a time in epoch milliseconds.'],
    ['since=10&until=5', 'since must not be after until.'],
    ['choreo=no-slash', 'choreo must be a Choreo id.'],
    ['cursor=not-a-cursor', 'cursor must be the one a previous answer gave.'],
    ['sort=asc', 'Unknown query parameter.'],
  ])('?%s answers 400', async (query, message) => {
    const res = await t.call('GET', `/choreo-executions?${query}`, t.credentials.alice);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.code).toBe('BAD_REQUEST');
    expect(body.error.message).toContain(message);
  });
});
