import type { Logger, ScheduleTickMetrics } from '@ces/observability';
import { type ClaimedSchedule, type ScheduleStore, ticksAfter } from '@ces/store';

/** One tick to start: its identity is (account, name, scheduledTime). */
export interface Tick {
  schedule: ClaimedSchedule;
  scheduledTime: number;
}

/**
 * Starts the run of a tick, or says the schedule's last run still goes on (`busy`: the overlap
 * policy starts nothing now; `allow-all` is never busy). It must be idempotent by the tick's
 * identity: a firer that crashed after it and before the cursor moved makes another firer call it
 * again for the same tick, and that call must start nothing new.
 */
export type StartTick = (tick: Tick) => Promise<'started' | 'busy'>;

export interface ScheduleFirerOptions {
  schedules: ScheduleStore;
  startTick: StartTick;
  logger: Logger;
  /** How long a claimed schedule is this firer's alone; a dead firer's ticks are taken after it. */
  leaseMs: number;
  /** Longest wait between two looks at the due set. */
  pollMs: number;
  /** Most schedules claimed at once. */
  batch: number;
  /**
   * Claim-and-fire loops at once: while one waits for the slowest tick of its batch, another
   * claims the next, so a burst of ticks due together is not fired one batch after another.
   */
  loops?: number;
  /** How soon a tick waiting under `buffer-one` is looked at again, to start once the last run ends. */
  bufferRecheckMs?: number;
  /** Counts what comes of ticks, and how late their runs start. */
  metrics?: ScheduleTickMetrics;
  now?: () => number;
}

export interface ScheduleFirer {
  start(): void;
  stop(): Promise<void>;
  /** One pass over what is due now; the number of schedules it held. */
  fireDue(): Promise<number>;
}

/** Most ticks walked to count the missed ones after a long outage, so a pass stays bounded. */
const MOST_TICKS_WALKED = 100_000;

/**
 * Fires the due ticks of every schedule, in every worker: schedules are claimed from one sorted set
 * under a lease, each tick is started, then the cursor moves by compare-and-set. No timer per
 * schedule: an idle schedule is one member of the sorted set.
 */
export function createScheduleFirer({
  schedules,
  startTick,
  logger,
  leaseMs,
  pollMs,
  batch,
  bufferRecheckMs = 1_000,
  loops = 1,
  metrics,
  now = Date.now,
}: ScheduleFirerOptions): ScheduleFirer {
  let running = false;
  // Set by stop(): a firer stopping lets go of what it holds at the next cursor move.
  let stopping = false;
  let loop: Promise<unknown> | undefined;
  const wakes = new Set<() => void>();

  async function fireSchedule(schedule: ClaimedSchedule): Promise<void> {
    const { timing, catchupWindowSeconds } = schedule.spec;
    let cursor = schedule.cursor;
    let lastTick = schedule.lastTick;
    const at = now();
    const windowStart = at - catchupWindowSeconds * 1_000;
    let missed = 0;
    let walked = cursor;
    while (walked < windowStart && missed < MOST_TICKS_WALKED) {
      missed += 1;
      walked = ticksAfter(timing, walked, 1)[0] as number;
    }
    if (walked < windowStart) walked = ticksAfter(timing, windowStart - 1, 1)[0] as number;
    if (missed > 0) {
      const moved = await schedules.advance(schedule, { from: cursor, to: walked, fired: 0, missed, release: walked > at });
      if (moved !== 'moved') return;
      metrics?.missed(missed);
      cursor = walked;
    }
    // Under buffer-one, a tick waits while the last run goes on: it starts first once that run ended.
    let buffered = schedule.buffered;
    // What a tick sees of its schedule is as the ticks before it left it (its last fired tick).
    const asLeftSoFar = () => ({ ...schedule, cursor, ...(lastTick !== undefined ? { lastTick } : {}) });
    if (buffered !== undefined && (await startTick({ schedule: asLeftSoFar(), scheduledTime: buffered })) === 'started') {
      const moved = await schedules.advance(schedule, { from: cursor, to: cursor, fired: 1, firedTick: buffered, buffer: 'clear', release: false });
      if (moved !== 'moved') return;
      metrics?.fired(now() - buffered);
      lastTick = buffered;
      buffered = undefined;
    }
    const releaseAt = () => (buffered !== undefined ? now() + bufferRecheckMs : undefined);
    if (cursor > now()) {
      // Rewritten (put or resume) since it was claimed, or looked at for its buffered tick: due at
      // its cursor, or sooner while a tick waits.
      const later = releaseAt();
      await schedules.advance(schedule, { from: cursor, to: cursor, fired: 0, release: true, ...(later !== undefined ? { releaseAt: later } : {}) });
      return;
    }
    // Oldest first, one at a time: the next tick starts only once this one's cursor has moved.
    while (cursor <= now()) {
      const outcome = await startTick({ schedule: asLeftSoFar(), scheduledTime: cursor });
      const next = ticksAfter(timing, cursor, 1)[0] as number;
      const buffers = outcome === 'busy' && schedule.spec.overlap === 'buffer-one' && buffered === undefined;
      if (buffers) buffered = cursor;
      const later = releaseAt();
      const moved = await schedules.advance(schedule, {
        from: cursor,
        to: next,
        fired: outcome === 'started' ? 1 : 0,
        skipped: outcome === 'busy' && !buffers ? 1 : 0,
        release: next > now() || stopping,
        ...(buffers ? { buffer: cursor } : {}),
        ...(later !== undefined ? { releaseAt: later } : {}),
      });
      if (moved === 'moved') {
        if (outcome === 'started') metrics?.fired(now() - cursor);
        else if (buffers) metrics?.buffered();
        else metrics?.skipped(1);
      }
      if (moved !== 'moved' || stopping) return;
      if (outcome === 'started') lastTick = cursor;
      cursor = next;
    }
  }

  async function fireDue(): Promise<number> {
    const claimed = await schedules.claimDue(now(), leaseMs, batch);
    await Promise.all(
      claimed.map((schedule) =>
        fireSchedule(schedule).catch((error: unknown) => {
          // The lease ends and another pass (here or elsewhere) fires the same tick again.
          logger.warn({ err: error, schedule: schedule.name, account: schedule.account }, 'schedule tick failed; retried when its lease ends');
        }),
      ),
    );
    return claimed.length;
  }

  return {
    fireDue,
    start() {
      if (running) return;
      running = true;
      stopping = false;
      const pause = (ms: number) =>
        new Promise<void>((resolve) => {
          const wake = () => {
            wakes.delete(wake);
            resolve();
          };
          wakes.add(wake);
          setTimeout(wake, ms);
        });
      const fireLoop = async (_: unknown, index: number) => {
        // Staggered: the loops look at the due set in turn, so a tick waits pollMs / loops at most.
        if (index > 0) await pause((pollMs * index) / loops);
        while (running) {
          let held = 0;
          try {
            held = await fireDue();
          } catch (error) {
            logger.warn({ err: error }, 'claiming due schedules failed');
          }
          // A full batch may mean more are due: look again at once.
          if (held >= batch) continue;
          await pause(pollMs);
        }
      };
      loop = Promise.all(Array.from({ length: loops }, fireLoop));
    },
    async stop() {
      running = false;
      stopping = true;
      for (const wake of [...wakes]) wake();
      await loop;
    },
  };
}
