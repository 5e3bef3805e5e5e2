/**
 * Why a run stopped before its last step, each reason by its name; the caller's hooks (or the
 * signal's abort reason) give it, and the run comes back with it unchanged:
 * - `termination-requested`: someone asked for it to stop (it ends TERMINATED_MANUALLY);
 * - `time-limit`: it is past its deadline (it ends TERMINATED_LIMIT);
 * - `shutdown`: the process is stopping (it is handed back, to be resumed elsewhere);
 * - `not-running`: its record refused the checkpoint, the execution has ended (terminated, say);
 * - `superseded`: its record refused the checkpoint, another worker has taken the execution;
 * - `lock-lost`: the worker cannot tell that it still holds the run's job, which may go to another.
 */
export type StopReason = 'termination-requested' | 'time-limit' | 'shutdown' | 'not-running' | 'superseded' | 'lock-lost';

const STOP_REASONS: ReadonlySet<unknown> = new Set<StopReason>(['termination-requested', 'time-limit', 'shutdown', 'not-running', 'superseded', 'lock-lost']);

/** The reason a signal was aborted with; any other abort is taken as a request to terminate. */
export function stopReasonOf(signal: AbortSignal): StopReason {
  return STOP_REASONS.has(signal.reason) ? (signal.reason as StopReason) : 'termination-requested';
}
