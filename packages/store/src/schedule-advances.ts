import type { KeySpace } from './keys.ts';
import type { Advance, ClaimedSchedule } from './schedule-store.ts';
import type { ScriptRunner } from './scripts.ts';

/** Most moves in one script call, so that one call holds Redis for a few milliseconds at most. */
const MOST_MOVES_PER_CALL = 1_000;

type AdvanceReply = 'moved' | 'moved-elsewhere' | 'gone';

interface PendingAdvance {
  args: string[];
  resolve: (reply: AdvanceReply) => void;
  reject: (error: unknown) => void;
}

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
  let pending: PendingAdvance[] = [];
  const flush = () => {
    const all = pending;
    pending = [];
    for (let start = 0; start < all.length; start += MOST_MOVES_PER_CALL) send(all.slice(start, start + MOST_MOVES_PER_CALL));
  };
  const send = (batch: PendingAdvance[]) => {
    run('advanceSchedules', [keys.schedulesDue()], [batch.length, ...batch.flatMap((move) => move.args)]).then(
      (replies) => {
        const codes = replies as number[];
        batch.forEach((move, index) => {
          const code = codes[index];
          move.resolve(code === 1 ? 'moved' : code === 0 ? 'moved-elsewhere' : 'gone');
        });
      },
      (error: unknown) => {
        for (const move of batch) move.reject(error);
      },
    );
  };
  return {
    send(schedule: ClaimedSchedule, move: Advance): Promise<AdvanceReply> {
      return new Promise((resolve, reject) => {
        if (pending.length === 0) setImmediate(flush);
        // A tick a trigger left waiting while this firer held the schedule is looked at this soon.
        pending.push({ args: advanceArgs(keys, schedule, move, Date.now() + waitingRecheckMs), resolve, reject });
      });
    },
  };
}
