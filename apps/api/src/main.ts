import { ConfigError } from '@ces/config';
import { createLogger } from '@ces/observability';
import { loadApiConfig, type ApiConfig } from './config.ts';
import { startApiService } from './api-service.ts';

let config: ApiConfig;
try {
  config = loadApiConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`api: ${error.message}\n`);
    process.exit(1);
  }
  throw error;
}

const logger = createLogger({ name: 'api', level: config.LOG_LEVEL });
const service = await startApiService(config, logger).catch((error: unknown) => {
  logger.fatal({ err: error }, 'api failed to start');
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'api stopping');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    service.close().then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'api did not stop cleanly');
        process.exit(1);
      },
    );
  });
}
