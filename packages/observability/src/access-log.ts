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

/** Drops absent fields, rounds the duration: the line as it is logged. */
export function accessLogFields(entry: AccessLogEntry): Record<string, string | number> {
  const fields: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(entry)) if (value !== undefined && value !== '') fields[name] = value;
  fields.durationMs = Math.round(entry.durationMs * 10) / 10;
  return fields;
}
