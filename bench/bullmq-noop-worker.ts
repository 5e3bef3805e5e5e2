// Baseline for running: a raw BullMQ worker whose processor does nothing, with the service's
// worker concurrency, against the same Redis.
import { Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { EXECUTION_JOB_RETENTION } from '@ces/store';

const settings = JSON.parse(process.argv[2] ?? '{}') as { redisUrl: string; prefix: string; queue: string; concurrency: number };

const worker = new Worker(settings.queue, async () => {}, {
  connection: new Redis(settings.redisUrl, { maxRetriesPerRequest: null }),
  prefix: settings.prefix,
  concurrency: settings.concurrency,
  // As the service's workers keep finished jobs.
  ...EXECUTION_JOB_RETENTION,
});
worker.on('error', (error) => process.stderr.write(`bullmq baseline worker: ${error.message}\n`));
await worker.waitUntilReady();
process.stdout.write('bullmq baseline worker ready\n');

process.on('SIGTERM', () => {
  void worker.close().then(() => process.exit(0));
});
