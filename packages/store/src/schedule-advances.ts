import type { KeySpace } from './keys.ts';
import type { ClaimedSchedule } from './schedule.ts';
import type { ScriptRunner } from './scripts.ts';
import { createTurnBatcher } from './turn-batches.ts';

/** Most moves in one script call, so that one call holds Redis for a few milliseconds at most. */
const MOST_MOVES_PER_CALL = 1_000;

export interface Advance {
  /** The cursor the firer read. */
  from: number;
  /** The next tick to fire. */
  to: number;
  fired: 0 | 1;
  missed?: number;
  skipped?: number;
  /** Whether the schedule goes back in the due set at `to` (false: the firer goes on holding it). */
  release: boolean;
  /** When it goes back in the due set, if earlier than `to` (a buffered tick to look at again). */
  releaseAt?: number;
  /** The tick fired, when it is not `from` (a buffered tick). */
  firedTick?: number;
  /** The tick left waiting under `buffer-one`, or 'clear' once it has started. */
  buffer?: number | 'clear';
}

type AdvanceReply = 'moved' | 'moved-tick-skipped' | 'moved-elsewhere' | 'gone';

/** The 12 values advance-schedules.lua takes for one move. */
function advanceArgs(keys: KeySpace, schedule: ClaimedSchedule, move: Advance, waitingAt: number): string[] {
  return [
    keys.schedule(schedule.account, schedule.name),
    schedule.member,
    String(move.from),
    String(move.to),
    String(move.fired),
    String(move.missed ?? 0),
    String(move.skipped ?? 0),
    move.release ? '1' : '0',
    move.firedTick === undefined ? '' : String(move.firedTick),
    move.buffer === undefined ? '' : move.buffer === 'clear' ? '-' : String(move.buffer),
    move.releaseAt === undefined ? '' : String(Math.min(move.releaseAt, move.to)),
    String(waitingAt),
  ];
}

/**
 * Gathers the cursor moves asked for in one turn of the event loop into one call of
 * advance-schedules.lua: the ticks of a claimed batch fall due together, and their runs are
 * accepted in the same few turns, so a batch's moves cost one round trip and one script run.
 */
export function createAdvanceBatcher(run: ScriptRunner, keys: KeySpace, waitingRecheckMs: number) {
  const advance = createTurnBatcher(async (moves: string[][]): Promise<AdvanceReply[]> => {
    const codes = (await run('advanceSchedules', [keys.schedulesDue()], [moves.length, ...moves.flat()])) as number[];
    return codes.map((code) => (code === 1 ? 'moved' : code === 2 ? 'moved-tick-skipped' : code === 0 ? 'moved-elsewhere' : 'gone'));
  }, MOST_MOVES_PER_CALL);
  return {
    // A tick a trigger left waiting while this firer held the schedule is looked at this soon.
    send: (schedule: ClaimedSchedule, move: Advance): Promise<AdvanceReply> => advance(advanceArgs(keys, schedule, move, Date.now() + waitingRecheckMs)),
  };
}
