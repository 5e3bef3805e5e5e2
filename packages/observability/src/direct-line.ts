import { pino } from 'pino';
import type { Logger } from './logger.ts';

/** What JSON must escape, lone surrogates included (JSON.stringify writes them as \u escapes). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** A JSON string; most logged values (ids, names, paths) need no escaping, and testing is cheaper than JSON.stringify. */
export function jsonString(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** The ISO time of the current millisecond, formatted once per millisecond rather than once per line. */
function createClock(): () => string {
  let formattedAt = -1;
  let formatted = '';
  return () => {
    const now = Date.now();
    if (now !== formattedAt) {
      formattedAt = now;
      formatted = new Date(now).toISOString();
    }
    return formatted;
  };
}

export type DirectLineLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * Writes a line as `logger` would (same stream, level filter, time format and bindings) from fields
 * the caller has serialised itself: `fields` is `,"name":value…`, in the order they should appear.
 * pino's generic serialiser and its redaction pass cost several microseconds a line, which lines
 * written once per request or per run cannot afford. Only for fixed lists of fields that hold no
 * secret, since nothing here redacts. For loggers of createLogger (and their children).
 */
export function createDirectLineWriter(logger: Logger): (level: DirectLineLevel, fields: string, message: string) => void {
  const internals = logger as unknown as Record<symbol, unknown>;
  const stream = internals[pino.symbols.streamSym] as { write(line: string): unknown };
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const isoTime = createClock();
  return (level, fields, message) => {
    if (!logger.isLevelEnabled(level)) return;
    stream.write(`{"level":"${level}","time":"${isoTime()}"${bindings}${fields},"msg":${jsonString(message)}}\n`);
  };
}
