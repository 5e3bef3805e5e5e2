import { loadConfigOrExit } from '@ces/config';
import { createLogger, runService } from '@ces/observability';
import { holdAtSeam } from '@ces/store';
import { loadWorkerConfig } from './config.ts';
import { CRASH_SEAMS, type CrashSeam } from './crash-seam.ts';
import { startWorkerService } from './worker-service.ts';

const config = loadConfigOrExit('worker', () => loadWorkerConfig(process.env));
const logger = createLogger({ name: 'worker', level: config.LOG_LEVEL });
// Set by tests only, never in a deployment: the worker stops for good at this crash seam (between
// two writes of a run), so that a test can kill it there.
const holdAt = CRASH_SEAMS.find((seam) => seam === process.env.WORKER_TEST_HOLD_AT) as CrashSeam | undefined;
await runService({
  name: 'worker',
  logger,
  start: (fail) =>
    startWorkerService(config, logger, {
      onFatal: fail,
      ...(holdAt
        ? {
            atSeam: holdAtSeam(holdAt, (executionId) => logger.warn({ executionId, seam: holdAt }, `held at the crash seam ${holdAt} (WORKER_TEST_HOLD_AT)`)),
          }
        : {}),
    }),
  // Past the grace period the process exits anyway; the runs it still holds are resumed elsewhere.
  stopTimeoutMs: config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000,
  overrunMessage: 'grace period over; exiting with runs still held',
});
