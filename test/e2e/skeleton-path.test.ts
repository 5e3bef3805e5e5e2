import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

// The thin path through the whole system: HTTPS → API → BullMQ → a worker process → Redis → API.
describe('skeleton path over HTTPS with real processes', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('lists the Choreos the caller may access', async () => {
    const res = await stack.call('GET', '/choreos', stack.credentials.alice);
    expect(res.status).toBe(200);
    expect(res.json().resources).toContain('/Library/Utilities/Encoding/Base64Encode');
  });

  it('runs Base64Encode synchronously on a worker and reports its host', async () => {
    const res = await stack.call('POST', '/choreos/Library/Utilities/Encoding/Base64Encode', stack.credentials.acmeApp, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'hello, world' }] }),
    });
    expect(res.status, res.text).toBe(200);
    const { output, execution } = res.json();
    expect(output.Base64EncodedText).toBe(Buffer.from('hello, world').toString('base64'));
    expect(execution.status).toBe('SUCCESS');
    expect(execution.id).toMatch(/^[0-9a-f]{32}$/);
    expect(Number(execution.endtime)).toBeGreaterThanOrEqual(Number(execution.starttime));

    const status = await stack.call('GET', `/choreo-executions/${execution.id}`, stack.credentials.acmeApp);
    expect(status.status).toBe(200);
    expect(status.json().execution).toMatchObject({
      id: execution.id,
      choreo: '/Library/Utilities/Encoding/Base64Encode',
      status: 'SUCCESS',
      host: '10.0.0.1',
    });
  });

  it('refuses a wrong password with 401 and a Basic challenge', async () => {
    const res = await stack.call('GET', '/choreos', { ...stack.credentials.alice, secret: 'wrong-password' });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm=/);
    expect(res.json().error.code).toBe('UNAUTHORIZED');
  });
});
