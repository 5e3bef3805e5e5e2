import { loadConfigOrExit } from '@ces/config';
import { createLogger, runService } from '@ces/observability';
import { startApiService } from './api-service.ts';
import { loadApiConfig } from './config.ts';

const config = loadConfigOrExit('api', () => loadApiConfig(process.env));
const logger = createLogger({ name: 'api', level: config.LOG_LEVEL });
await runService({ name: 'api', logger, start: () => startApiService(config, logger), stopTimeoutMs: 10_000 });
