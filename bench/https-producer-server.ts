// Baseline for accepting runs over HTTPS: the floor of any HTTPS job service. Bare Hono on
// @hono/node-server over the same TLS setup as the API (node:https, the same certificate, the same
// keep-alive), whose one handler reads the JSON body, queues a BullMQ job with the service's job
// options and the inputs as its data, and answers 202 with the job's id. The jobs go to the raw
// baseline's queue, where the no-op workers (bench/bullmq-noop-worker.ts) run them. Nothing else:
// no authentication, no record of the run, no log line, no metrics.
import { randomUUID } from 'node:crypto';
import { EXECUTION_JOB_OPTIONS } from '@ces/store';
import { Queue } from 'bullmq';
import { Hono } from 'hono';
import { Redis } from 'ioredis';
import { serveLikeTheApi } from './api-like-https-server.ts';

const settings = JSON.parse(process.argv[2] ?? '{}') as { port: number; certFile: string; keyFile: string; redisUrl: string; prefix: string; queue: string };

const connection = new Redis(settings.redisUrl, { maxRetriesPerRequest: null });
const queue = new Queue(settings.queue, { connection, prefix: settings.prefix });
await queue.waitUntilReady();

const app = new Hono();
app.post('*', async (c) => {
  const body = (await c.req.json()) as { inputs?: unknown };
  if (!Array.isArray(body.inputs)) return c.json({ error: 'inputs must be an array' }, 400);
  const id = randomUUID().replaceAll('-', '');
  await queue.add('run', { executionId: id, inputs: body.inputs }, { ...EXECUTION_JOB_OPTIONS, jobId: id });
  return c.json({ id }, 202);
});

serveLikeTheApi({
  fetch: app.fetch,
  port: settings.port,
  certFile: settings.certFile,
  keyFile: settings.keyFile,
  readyLine: 'https producer listening',
  onClosed: async () => {
    await queue.close();
    connection.disconnect();
  },
});
