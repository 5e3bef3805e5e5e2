/**
 * The fixed window an instant falls in, for the budget of stored bytes: windows as long as the
 * retention period, numbered from the epoch, so every process agrees on them without talking.
 */
export interface StorageWindow {
  index: number;
  startMs: number;
  lengthMs: number;
}

/**
 * What the budget counts at `now`: this window's bytes, and the previous window's weighted by the
 * share of it still within the last retention period (as accept-execution.lua computes it).
 */
export function slidingStoredBytes(current: number, previous: number, window: StorageWindow, now: number): number {
  return current + (previous * (window.lengthMs - (now - window.startMs))) / window.lengthMs;
}

export function storageWindow(now: number, retentionSeconds: number): StorageWindow {
  const lengthMs = retentionSeconds * 1000;
  const index = Math.floor(now / lengthMs);
  return { index, startMs: index * lengthMs, lengthMs };
}
