import type { Logger } from 'pino';

export interface StoppableService {
  close(): Promise<void>;
}

/**
 * Starts a long-running service and stops it cleanly on SIGTERM or SIGINT, or when the service
 * reports through `fail` that it cannot go on (then with status 1, so that a supervisor starts it
 * again). Startup failures and stops that overrun `stopTimeoutMs` end the process with status 1
 * (or the failure's own `exitCode`, as a configuration error has), after logging why.
 */
export async function runService(options: {
  name: string;
  logger: Logger;
  start: (fail: (error: unknown) => void) => Promise<StoppableService>;
  stopTimeoutMs: number;
  /** Logged when the stop overruns its time, before the forced exit. */
  overrunMessage?: string;
}): Promise<void> {
  const { name, logger } = options;
  let service: StoppableService | undefined;
  let stopping = false;
  const stop = (status: number) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => {
      logger.error(options.overrunMessage ?? `${name} did not stop in time`);
      process.exit(1);
    }, options.stopTimeoutMs);
    force.unref();
    (service ? service.close() : Promise.resolve()).then(
      () => exitAfterLogs(logger, status),
      (error: unknown) => {
        logger.error({ err: error }, `${name} did not stop cleanly`);
        exitAfterLogs(logger, 1);
      },
    );
  };
  const fail = (error: unknown) => {
    logger.fatal({ err: error }, `${name} cannot go on`);
    stop(1);
  };
  service = await options.start(fail).catch((error: unknown) => {
    logger.fatal({ err: error }, `${name} failed to start`);
    // Ending now, with this status: a signal meanwhile does not stop it again with another.
    stopping = true;
    // A configuration error says which status means "do not restart me" (see @ces/config).
    const exitCode = (error as { exitCode?: unknown }).exitCode;
    exitAfterLogs(logger, typeof exitCode === 'number' ? exitCode : 1);
    return undefined;
  });
  if (service === undefined) return;
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.on(signal, () => {
      if (stopping) return;
      logger.info({ signal }, `${name} stopping`);
      stop(0);
    });
  }
}

/** How long a stopping process waits for its last log lines to be written. */
const LOG_DRAIN_MS = 2_000;

/** Ends the process once the lines logged so far are written (or LOG_DRAIN_MS has passed). */
function exitAfterLogs(logger: Logger, status: number): void {
  const exit = () => process.exit(status);
  setTimeout(exit, LOG_DRAIN_MS).unref();
  try {
    logger.flush(exit);
  } catch {
    exit();
  }
}
