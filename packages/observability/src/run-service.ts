import type { Logger } from 'pino';

export interface StoppableService {
  close(): Promise<void>;
}

/**
 * Starts a long-running service and stops it cleanly on SIGTERM or SIGINT. Startup failures and
 * stops that overrun `stopTimeoutMs` end the process with status 1, after logging why.
 */
export async function runService(options: {
  name: string;
  logger: Logger;
  start: () => Promise<StoppableService>;
  stopTimeoutMs: number;
  /** Logged when the stop overruns its time, before the forced exit. */
  overrunMessage?: string;
}): Promise<void> {
  const { name, logger } = options;
  const service = await options.start().catch((error: unknown) => {
    logger.fatal({ err: error }, `${name} failed to start`);
    process.exit(1);
  });
  let stopping = false;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      logger.info({ signal }, `${name} stopping`);
      const force = setTimeout(() => {
        logger.error(options.overrunMessage ?? `${name} did not stop in time`);
        process.exit(1);
      }, options.stopTimeoutMs);
      force.unref();
      service.close().then(
        () => process.exit(0),
        (error: unknown) => {
          logger.error({ err: error }, `${name} did not stop cleanly`);
          process.exit(1);
        },
      );
    });
  }
}
