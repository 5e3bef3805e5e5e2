import { hostname } from 'node:os';
import { pino, type Logger, type LoggerOptions } from 'pino';

export type { Logger };

/**
 * Header and field names whose values are secrets. They are removed from every log line, so
 * that no code path can log a password or key by accident.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'headers.authorization',
  'authorization',
  'password',
  'key',
  'secret',
  '*.password',
  '*.key',
  '*.secret',
];

/** Structured JSON logs on stdout, one object a line. */
export function createLogger(options: { name: string; level: string; base?: Record<string, unknown> }, destination?: NodeJS.WritableStream): Logger {
  const config: LoggerOptions = {
    name: options.name,
    level: options.level,
    // `hostname` is the machine; a worker adds `host`, the address it writes on executions.
    base: { pid: process.pid, hostname: hostname(), ...options.base },
    redact: { paths: REDACTED_PATHS, remove: true },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  return pino(config, (destination as never) ?? bufferedStdout());
}

/** Bytes gathered before a write, unless FLUSH_INTERVAL_MS passes first. */
const WRITE_AT_BYTES = 8 * 1024;
const FLUSH_INTERVAL_MS = 200;

/**
 * Asynchronous, buffered writes keep logging off the request path. A write per line cost a busy API
 * about an eighth of its CPU: lines now go out 8 KiB at a time, and at least every 200 ms. pino
 * flushes what is pending when the process exits; a process killed outright loses at most that.
 */
function bufferedStdout() {
  const destination = pino.destination({ dest: 1, sync: false, minLength: WRITE_AT_BYTES });
  setInterval(() => destination.flush(), FLUSH_INTERVAL_MS).unref();
  return destination;
}
