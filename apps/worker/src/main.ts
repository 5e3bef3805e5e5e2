import { ConfigError } from '@ces/config';
import { createLogger } from '@ces/observability';
import { loadWorkerConfig, type WorkerConfig } from './config.ts';
import { startWorkerService } from './worker-service.ts';

let config: WorkerConfig;
try {
  config = loadWorkerConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`worker: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger({ name: 'worker', level: config.LOG_LEVEL });
const service = await startWorkerService(config, logger).catch((error: unknown) => {
  logger.fatal({ err: error }, 'worker failed to start');
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Past the grace period the process exits anyway; its held runs are then resumed elsewhere.
    const force = setTimeout(() => {
      logger.error('grace period over; exiting with runs still held');
      process.exit(1);
    }, config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000);
    force.unref();
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'worker did not stop cleanly');
        process.exit(1);
      },
    );
  });
}
