import { createDirectLineWriter, jsonString } from './direct-line.ts';
import type { Logger } from './logger.ts';

/** What one access log line says of a request; never a header, a body or a query value. */
export interface AccessLogEntry {
  requestId: string;
  method: string;
  /** The path without its query string. */
  path: string;
  route: string;
  status: number;
  durationMs: number;
  account?: string;
  /** The authenticated user, application or operator name (a name, not a secret). */
  principal?: string;
  executionId?: string;
  choreo?: string;
}

export type AccessLogLevel = 'info' | 'warn' | 'error';

/** 5xx are our failures, 4xx the caller's; both stay on one line per request. */
export function accessLogLevel(status: number): AccessLogLevel {
  if (status >= 500) return 'error';
  if (status >= 400) return 'warn';
  return 'info';
}

export const ACCESS_LOG_MESSAGE = 'request';

export type AccessLogWriter = (level: AccessLogLevel | 'debug', entry: AccessLogEntry) => void;

/** The optional string fields, in the order they are written. */
const OPTIONAL_FIELDS = ['account', 'principal', 'executionId', 'choreo'] as const;

/**
 * Writes access lines as `logger` would — same stream, level filter, time format and bindings,
 * absent fields dropped, duration rounded to 0.1 ms — but serialises them itself. pino's generic
 * serialiser (and its redaction) cost about a tenth of a status poll's CPU; every field here comes
 * from the fixed list of AccessLogEntry, which holds no secret. For loggers of createLogger.
 */
export function createAccessLogWriter(logger: Logger): AccessLogWriter {
  const writeLine = createDirectLineWriter(logger);
  return (level, entry) => {
    if (!logger.isLevelEnabled(level)) return;
    let fields = entry.requestId !== '' ? `,"requestId":${jsonString(entry.requestId)}` : '';
    fields += `,"method":${jsonString(entry.method)},"path":${jsonString(entry.path)},"route":${jsonString(entry.route)}`;
    fields += `,"status":${entry.status},"durationMs":${Math.round(entry.durationMs * 10) / 10}`;
    for (const field of OPTIONAL_FIELDS) {
      const value = entry[field];
      if (value !== undefined && value !== '') fields += `,"${field}":${jsonString(value)}`;
    }
    writeLine(level, fields, ACCESS_LOG_MESSAGE);
  };
}
