import { loadConfigOrExit } from '@ces/config';
import { createLogger, runService } from '@ces/observability';
import { loadWorkerConfig } from './config.ts';
import { startWorkerService } from './worker-service.ts';

const config = loadConfigOrExit('worker', () => loadWorkerConfig(process.env));
const logger = createLogger({ name: 'worker', level: config.LOG_LEVEL });
// Set by tests only, never in a deployment: the worker stops for good between storing a run's
// suspension and moving its job among the delayed ones, so that a test can kill it in that window.
const holdAfterSuspend = process.env.WORKER_TEST_HOLD_AFTER_SUSPEND === '1';
await runService({
  name: 'worker',
  logger,
  start: (fail) =>
    startWorkerService(config, logger, {
      onFatal: fail,
      ...(holdAfterSuspend
        ? {
            afterSuspend: (executionId) => {
              logger.warn({ executionId }, 'held after suspending (WORKER_TEST_HOLD_AFTER_SUSPEND)');
              return new Promise<void>(() => {});
            },
          }
        : {}),
    }),
  // Past the grace period the process exits anyway; the runs it still holds are resumed elsewhere.
  stopTimeoutMs: config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000,
  overrunMessage: 'grace period over; exiting with runs still held',
});
