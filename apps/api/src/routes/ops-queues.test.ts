import { createExecutionQueue, createExecutionStore, createKeySpace, createRedisConnection, waitUntilReady } from '@ces/store';
import { isolatedPrefix } from '@ces/testing';
import { Hono } from 'hono';
import { describe, expect, inject, it } from 'vitest';
import { opsQueuesRoute } from './ops-queues.ts';

describe('the queue dashboard', () => {
  it('answers a failure of its own with 500 and nothing of the failure', async () => {
    const connection = createRedisConnection(inject('redisUrl'), 'queue', 'ops-queues-test');
    await waitUntilReady(connection);
    const keys = createKeySpace(isolatedPrefix('ops-queues'));
    const queue = createExecutionQueue({ connection, keys });
    const executions = createExecutionStore({ redis: connection, keys, retentionSeconds: 300 });
    const app = new Hono().route('/ops/queues', opsQueuesRoute({ queue, executions, basePath: '/ops/queues' }));
    expect((await app.request('/ops/queues/api/queues')).status).toBe(200);

    // Every Redis call of the dashboard now fails, as when Redis is unreachable.
    await queue.close();
    connection.disconnect();
    const res = await app.request('/ops/queues/api/queues');
    expect(res.status).toBe(500);
    // Bull Board's own shape, for its page to show, and not a word of the exception's message.
    expect(await res.json()).toEqual({ error: { key: 'ERRORS.INTERNAL_SERVER_ERROR' } });
  });
});
