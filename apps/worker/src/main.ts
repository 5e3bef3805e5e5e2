import { loadConfigOrExit } from '@ces/config';
import { createLogger, runService } from '@ces/observability';
import { loadWorkerConfig } from './config.ts';
import { startWorkerService } from './worker-service.ts';

const config = loadConfigOrExit('worker', () => loadWorkerConfig(process.env));
const logger = createLogger({ name: 'worker', level: config.LOG_LEVEL });
await runService({
  name: 'worker',
  logger,
  start: (fail) => startWorkerService(config, logger, { onFatal: fail }),
  // Past the grace period the process exits anyway; the runs it still holds are resumed elsewhere.
  stopTimeoutMs: config.WORKER_SHUTDOWN_GRACE_SECONDS * 1000,
  overrunMessage: 'grace period over; exiting with runs still held',
});
