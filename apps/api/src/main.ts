import { loadConfigOrExit } from '@ces/config';
import { createLogger, runService } from '@ces/observability';
import { holdAtSeam, STORE_CRASH_SEAMS } from '@ces/store';
import { startApiService } from './api-service.ts';
import { loadApiConfig } from './config.ts';

const config = loadConfigOrExit('api', () => loadApiConfig(process.env));
const logger = createLogger({ name: 'api', level: config.LOG_LEVEL });
// Set by tests only, never in a deployment: the API stops for good at this crash seam of the store
// (with shards, between the control slot's write and a shard's), so that a test can kill it there.
const holdAt = STORE_CRASH_SEAMS.find((seam) => seam === process.env.API_TEST_HOLD_AT);
await runService({
  name: 'api',
  logger,
  start: () =>
    startApiService(
      config,
      logger,
      holdAt ? { atSeam: holdAtSeam(holdAt, (id) => logger.warn({ id, seam: holdAt }, `held at the crash seam ${holdAt} (API_TEST_HOLD_AT)`)) } : {},
    ),
  stopTimeoutMs: 10_000,
});
