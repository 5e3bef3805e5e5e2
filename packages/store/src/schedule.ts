import type { ScheduleTiming } from './schedule-times.ts';

export type OverlapPolicy = 'skip' | 'buffer-one' | 'allow-all';

/** What a schedule starts and when, as its owner wrote it. */
export interface ScheduleSpec {
  choreo: string;
  inputs: { name: string; value: string }[];
  preset?: string;
  timing: ScheduleTiming;
  overlap: OverlapPolicy;
  catchupWindowSeconds: number;
  note?: string;
}

export interface StoredSchedule {
  account: string;
  name: string;
  spec: ScheduleSpec;
  /** Scheduled time (epoch ms) of the next tick to fire. */
  cursor: number;
  paused: boolean;
  fired: number;
  missed: number;
  skipped: number;
  /** Scheduled time of the last tick fired, if any. */
  lastTick?: number;
  /** The note given with the last pause or resume. */
  stateNote?: string;
  /** Under `buffer-one`: the scheduled time of the tick waiting for the last run to end. */
  buffered?: number;
}

/** A schedule a firer holds under lease: fire `cursor`, then `advance` from it. */
export interface ClaimedSchedule extends StoredSchedule {
  member: string;
}
