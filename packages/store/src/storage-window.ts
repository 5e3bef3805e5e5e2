/**
 * The fixed window an instant falls in, for the budget of stored bytes: windows as long as the
 * retention period, numbered from the epoch, so every process agrees on them without talking.
 */
export interface StorageWindow {
  index: number;
  startMs: number;
  lengthMs: number;
}

export function storageWindow(now: number, retentionSeconds: number): StorageWindow {
  const lengthMs = retentionSeconds * 1000;
  const index = Math.floor(now / lengthMs);
  return { index, startMs: index * lengthMs, lengthMs };
}
