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
   * How long before its tick a schedule is claimed (default `2 × pollMs`): a burst of ticks due
   * together is held when it falls due and each starts at its time, with no claim between.
   */
  lookaheadMs?: number;
  /**
   * Most schedules this firer holds at once, waiting for their ticks or firing them (default
   * `4 × batch`): it claims more as they are done, and leaves the rest of a burst to other firers.
   */
  mostHeld?: number;
  /** How soon a tick waiting under `buffer-one` is looked at again, to start once the last run ends. */
  bufferRecheckMs?: number;
  /** Counts what comes of ticks, and how late their runs start. */
  metrics?: ScheduleTickMetrics;
  /**
   * Told when a burst of ticks begins (`burstSize` schedules or more firing at once) and when it is
   * over (fewer, or after MOST_BURST_MS): the worker stops taking runs meanwhile, so that starting
   * every tick of the burst does not queue behind running the runs it started first.
   */
  onBurst?: (bursting: boolean) => void;
  /** Schedules firing at once that make a burst (default: a fifth of `batch`, at least 20). */
  burstSize?: number;
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
 * Longest burst: past it the worker takes runs again, and no burst begins for as long, so that
 * schedules falling due without end never keep runs waiting for more than this.
 */
export const MOST_BURST_MS = 3_000;

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
  lookaheadMs = 2 * pollMs,
  mostHeld = 4 * batch,
  metrics,
  onBurst,
  burstSize = Math.max(20, Math.floor(batch / 5)),
  now = Date.now,
}: ScheduleFirerOptions): ScheduleFirer {
  let running = false;
  // Set by stop(): a firer stopping lets go of what it holds at the next cursor move.
  let stopping = false;
  let loop: Promise<unknown> | undefined;
  // Schedules held (waiting for their ticks or firing them) and, of them, those firing.
  const held = new Set<Promise<void>>();
  let firing = 0;
  let burstSince: number | undefined;
  let noBurstUntil = 0;

  function burstCheck(): void {
    const at = now();
    if (burstSince === undefined) {
      if (firing < burstSize || at < noBurstUntil) return;
      burstSince = at;
      onBurst?.(true);
    } else if (firing < burstSize || at - burstSince >= MOST_BURST_MS) {
      if (firing >= burstSize) noBurstUntil = at + MOST_BURST_MS;
      burstSince = undefined;
      onBurst?.(false);
    }
  }

  async function fireCounted(schedule: ClaimedSchedule): Promise<void> {
    firing += 1;
    burstCheck();
    try {
      await fireSchedule(schedule);
    } catch (error) {
      // The lease ends and another pass (here or elsewhere) fires the same tick again.
      logger.warn({ err: error, schedule: schedule.name, account: schedule.account }, 'schedule tick failed; retried when its lease ends');
    } finally {
      firing -= 1;
      burstCheck();
    }
  }

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
      // Its wait was the overlap policy's (or a trigger's or backfill's tick's), not the firer's lateness.
      metrics?.fired();
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
      const advanced = moved === 'moved' || moved === 'moved-tick-skipped';
      if (advanced) {
        if (outcome === 'started') metrics?.fired(now() - cursor);
        else if (buffers && moved === 'moved') metrics?.buffered();
        // Asked to wait, it found another tick (a trigger's or backfill's) waiting already.
        else metrics?.skipped(1);
      }
      if (!advanced || stopping) return;
      if (outcome === 'started') lastTick = cursor;
      cursor = next;
    }
  }

  /** When a claimed schedule has something to fire: a waiting buffered tick at once, else its cursor. */
  const dueAt = (schedule: ClaimedSchedule) => (schedule.buffered !== undefined ? 0 : schedule.cursor);

  async function fireDue(): Promise<number> {
    const claimed = await schedules.claimDue(now(), leaseMs, batch);
    await Promise.all(claimed.map(fireCounted));
    return claimed.length;
  }

  // Sleeps end early when the firer stops; the claim loop's also when room is made for a claim.
  const sleepers = new Set<() => void>();
  let roomWanted: (() => void) | undefined;
  const sleep = (ms: number, onRoom = false) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        sleepers.delete(wake);
        if (roomWanted === wake) roomWanted = undefined;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      sleepers.add(wake);
      if (onRoom) roomWanted = wake;
    });

  // One read of the change count for every schedule falling due in the same turn.
  let changesRead: Promise<number> | undefined;
  const changesNow = () => {
    if (changesRead === undefined) {
      changesRead = schedules.changes();
      changesRead.then(
        () => (changesRead = undefined),
        () => (changesRead = undefined),
      );
    }
    return changesRead;
  };

  /**
   * The copy of a schedule claimed ahead, as it is now: the same one when no schedule changed since
   * the claim, else read again; undefined when it was paused, deleted or rewritten meanwhile (what
   * changed it put it back in the due set or took it out: it is no longer this firer's).
   */
  async function stillHeld(schedule: ClaimedSchedule, changesAtClaim: number): Promise<ClaimedSchedule | undefined> {
    if ((await changesNow()) === changesAtClaim) return schedule;
    const fresh = await schedules.get(schedule.account, schedule.name);
    const same = fresh !== undefined && !fresh.paused && fresh.cursor === schedule.cursor && JSON.stringify(fresh.spec) === JSON.stringify(schedule.spec);
    return same ? { ...fresh, member: schedule.member } : undefined;
  }

  /** Fires a schedule claimed ahead at its tick, or hands it back untouched if the firer stops first. */
  async function fireWhenDue(schedule: ClaimedSchedule, changesAtClaim: number): Promise<void> {
    // Again if the timer came a millisecond early (the event loop's clock lags the wall clock).
    let waited = false;
    for (let wait = dueAt(schedule) - now(); wait > 0 && !stopping; wait = dueAt(schedule) - now()) {
      await sleep(wait);
      waited = true;
    }
    if (stopping) {
      await schedules.advance(schedule, { from: schedule.cursor, to: schedule.cursor, fired: 0, release: true }).catch(() => {});
      return;
    }
    const current = waited ? await stillHeld(schedule, changesAtClaim).catch(() => undefined) : schedule;
    if (current !== undefined) await fireCounted(current);
  }

  /** Whether a full claim fits beside what is held (a claim of mostHeld, when that is less than a batch). */
  const roomForClaim = () => mostHeld - held.size >= Math.min(batch, mostHeld);

  function hold(schedule: ClaimedSchedule, changesAtClaim: number): void {
    const fired: Promise<void> = fireWhenDue(schedule, changesAtClaim).finally(() => {
      held.delete(fired);
      if (roomForClaim()) roomWanted?.();
    });
    held.add(fired);
  }

  async function claimLoop(): Promise<void> {
    while (running) {
      if (!roomForClaim()) {
        // Full: woken as soon as a claim's worth is done.
        await sleep(pollMs, true);
        continue;
      }
      let claimed: ClaimedSchedule[] = [];
      let changesAtClaim = 0;
      try {
        // Read first, on the same connection: a change after it is seen at the tick.
        [changesAtClaim, claimed] = await Promise.all([schedules.changes(), schedules.claimDue(now() + lookaheadMs, leaseMs, batch)]);
      } catch (error) {
        logger.warn({ err: error }, 'claiming due schedules failed');
      }
      for (const schedule of claimed) hold(schedule, changesAtClaim);
      // A full claim may mean more are due: look again at once.
      if (claimed.length < batch && running) await sleep(pollMs);
    }
  }

  return {
    fireDue,
    start() {
      if (running) return;
      running = true;
      stopping = false;
      loop = claimLoop();
    },
    async stop() {
      running = false;
      stopping = true;
      for (const wake of [...sleepers]) wake();
      await loop;
      await Promise.all(held);
      if (burstSince !== undefined) {
        burstSince = undefined;
        onBurst?.(false);
      }
    },
  };
}
