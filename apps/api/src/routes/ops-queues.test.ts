import { createHash } from 'node:crypto';
import {
  createExecutionQueue,
  createExecutionQueues,
  createExecutionStore,
  createShardedExecutionStore,
  createKeySpace,
  createRedisConnection,
  enqueueExecution,
  openShardLayout,
  waitUntilReady,
  singleExecutionQueue,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture } from '@ces/testing';
import { Hono } from 'hono';
import { describe, expect, inject, it } from 'vitest';
import { opsQueuesRoute } from './ops-queues.ts';

async function dashboard(name: string) {
  const connection = createRedisConnection(inject('redisUrl'), 'queue', 'ops-queues-test');
  await waitUntilReady(connection);
  const prefix = isolatedPrefix(name);
  const keys = createKeySpace(prefix);
  const queue = createExecutionQueue({ connection, keys });
  const executions = createExecutionStore({ redis: connection, keys, retentionSeconds: 300 });
  const app = new Hono().route('/ops/queues', opsQueuesRoute({ queues: singleExecutionQueue(queue), executions, basePath: '/ops/queues' }));
  const close = async () => {
    await deleteKeysWithPrefix(connection, prefix).catch(() => {});
    await queue.close();
    connection.disconnect();
  };
  return { app, queue, executions, close };
}

describe('the queue dashboard', () => {
  it('names each job by its execution: Choreo, account, host and status', async () => {
    const { app, queue, executions, close } = await dashboard('ops-queues-names');
    try {
      const execution = newExecutionFixture({ account: 'acme', choreo: '/Library/Utilities/Development/Countdown' });
      await executions.accept(execution, { maxRunningPerAccount: 0 });
      await enqueueExecution(queue, execution.id);
      const lost = newExecutionFixture();
      await enqueueExecution(queue, lost.id);
      const res = await app.request('/ops/queues/api/queues?activeQueue=executions&status=waiting&page=1&jobsPerPage=10');
      expect(res.status).toBe(200);
      const { queues } = (await res.json()) as { queues: { jobs: { id: string; name: string; data: Record<string, unknown> }[] }[] };
      const jobs = Object.fromEntries((queues[0]?.jobs ?? []).map((job) => [job.id, job]));
      expect(jobs[execution.id]?.name).toBe('/Library/Utilities/Development/Countdown · account acme · not taken · RUNNING');
      expect(jobs[execution.id]?.data).toMatchObject({ executionId: execution.id, account: 'acme', host: '', status: 'RUNNING' });
      // A job whose record is gone says so, rather than show nothing.
      expect(jobs[lost.id]?.name).toBe(`${lost.id} · record expired`);
    } finally {
      await close();
    }
  });

  it("shows every shard's queue, shards added after its start among them", async () => {
    const connection = createRedisConnection(inject('redisUrl'), 'queue', 'ops-queues-test');
    await waitUntilReady(connection);
    const keys = createKeySpace(isolatedPrefix('ops-queues-shards'));
    const layout = await openShardLayout(connection, keys, 1);
    const queues = createExecutionQueues({ connection, layout });
    const executions = createShardedExecutionStore(layout, (shard) => createExecutionStore({ redis: connection, keys: shard.keys, retentionSeconds: 300 }));
    const app = new Hono().route('/ops/queues', opsQueuesRoute({ queues, executions, basePath: '/ops/queues' }));
    const shown = async () => {
      const res = await app.request('/ops/queues/api/queues?page=1&jobsPerPage=10');
      expect(res.status).toBe(200);
      return ((await res.json()) as { queues: { name: string }[] }).queues.map((queue) => queue.name).sort();
    };
    try {
      expect(await shown()).toEqual(['executions']);
      // Another process starts with QUEUE_SHARDS=3; this one learns of it from the registry.
      await openShardLayout(connection, keys, 3);
      await layout.refresh();
      expect(await shown()).toEqual(['shard-0.executions', 'shard-1.executions', 'shard-2.executions']);
    } finally {
      for (const shard of layout.shards) await deleteKeysWithPrefix(connection, shard.keys.prefix).catch(() => {});
      await queues.close();
      connection.disconnect();
    }
  });

  it('serves its page without links to other sites, under a policy that allows its one inline script', async () => {
    const { app, close } = await dashboard('ops-queues-page');
    try {
      const res = await app.request('/ops/queues', { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).not.toContain('fonts.googleapis.com');
      expect(page).not.toMatch(/(?:href|src)="(?:https?:)?\/\//);
      const inline = /<script>([^<]*)<\/script>/.exec(page)?.[1] ?? '';
      expect(inline).toContain('location.replace');
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
      expect(policy).toContain("default-src 'self'");
      expect(Number(res.headers.get('content-length') ?? page.length)).toBe(Buffer.byteLength(page));
    } finally {
      await close();
    }
  });

  it('answers a failure of its own with 500 and nothing of the failure', async () => {
    const { app, close } = await dashboard('ops-queues');
    expect((await app.request('/ops/queues/api/queues')).status).toBe(200);

    // Every Redis call of the dashboard now fails, as when Redis is unreachable.
    await close();
    const res = await app.request('/ops/queues/api/queues');
    expect(res.status).toBe(500);
    // Bull Board's own shape, for its page to show, and not a word of the exception's message.
    expect(await res.json()).toEqual({ error: { key: 'ERRORS.INTERNAL_SERVER_ERROR' } });
  });
});
