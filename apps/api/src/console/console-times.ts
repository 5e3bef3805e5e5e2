/** An epoch-ms time as people read it in the console: UTC, to the millisecond. */
export function formatTime(epochMs: number | undefined): string {
  if (epochMs === undefined || !Number.isFinite(epochMs)) return '';
  return new Date(epochMs).toISOString().replace('T', ' ').replace('Z', ' UTC');
}

/** A duration in ms, short: `850 ms`, `12.4 s`, `3 min 5 s`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms) || ms < 0) return '';
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 60) return `${minutes} min ${Math.round((ms % 60_000) / 1_000)} s`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}

/** A `datetime-local` field's value (UTC, as the console shows times) as epoch ms; undefined when empty or malformed. */
export function parseTimeField(value: string | undefined): number | undefined {
  if (!value) return undefined;
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)$/.exec(value.trim());
  if (!match) return undefined;
  const ms = Date.parse(`${match[1]}T${match[2]}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

/** Epoch ms as a `datetime-local` field's value, in UTC. */
export function timeFieldValue(epochMs: number | undefined): string {
  return epochMs === undefined ? '' : new Date(epochMs).toISOString().slice(0, 19);
}
