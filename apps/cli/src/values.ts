import { UsageError } from './cli-errors.ts';

/**
 * `Name=Value` pairs of `-i`; `Name=@file` takes the file's content (a value that starts with @
 * itself is written `Name=@@…`).
 */
export async function parseInputs(pairs: readonly string[], readFile: (path: string) => Promise<string>): Promise<{ name: string; value: string }[]> {
  const inputs: { name: string; value: string }[] = [];
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals < 1) throw new UsageError(`-i "${pair}" is not Name=Value`);
    const name = pair.slice(0, equals);
    let value = pair.slice(equals + 1);
    if (value.startsWith('@@')) value = value.slice(1);
    else if (value.startsWith('@')) {
      const file = value.slice(1);
      try {
        value = await readFile(file);
      } catch (error) {
        throw new UsageError(`cannot read ${file} for input ${name}: ${(error as Error).message}`);
      }
    }
    if (inputs.some((input) => input.name === name)) throw new UsageError(`input ${name} is given twice`);
    inputs.push({ name, value });
  }
  return inputs;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: a span back from now (`90s`, `30m`, `1h`, `2d`), a date (`2026-01-31T12:00Z`), or epoch milliseconds. */
export function parseSince(text: string, now: number): number {
  const span = /^(\d+)([smhd])$/.exec(text);
  if (span) return now - Number(span[1]) * (UNITS[span[2] as string] as number);
  if (/^\d{10,}$/.test(text)) return Number(text);
  const date = Date.parse(text);
  if (Number.isNaN(date)) throw new UsageError(`--since "${text}" is neither a span such as 1h or 30m nor a date`);
  return date;
}

/** Milliseconds as people read them: `840 ms`, `3.2 s`, `4 min 05 s`. */
export function formatDuration(ms: number): string {
  // A step that only computes takes a fraction of a millisecond: 0.4 ms says more than 0 ms.
  if (ms < 10) return `${Number(ms.toFixed(1))} ms`;
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  const seconds = Math.floor((ms % 60_000) / 1000);
  return minutes < 60 ? `${minutes} min ${String(seconds).padStart(2, '0')} s` : `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** An epoch-milliseconds string of the interface as an ISO time; '' stays ''. */
export const isoTime = (epoch: string | undefined) => (epoch ? new Date(Number(epoch)).toISOString() : '');

/** A plain text table: a header and left-aligned columns. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const format = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [format(header), ...rows.map(format)];
}
