/**
 * The integer codes the Lua scripts on an execution's record answer with: one meaning per code across every
 * such script (as BullMQ's `ErrorCode`), so that a code read in a test or a log means one thing. Each
 * script's header lists the codes it answers, by these names; the store turns them into named
 * outcomes and nothing else reads them.
 */
export const ScriptReply = {
  /**
   * Applied (or applied already by this very call, sent again after a dropped connection):
   * accept — recorded and queued for a take; checkpoint — recorded; end — ended; hand back —
   * handed back; suspend — suspended.
   */
  Done: 1,
  /** checkpoint: recorded, and termination has been requested: the run stops now. */
  DoneTerminationRequested: 2,
  /** accept: `{Replay, id, same}`: the Idempotency-Key started execution `id` already (same: 1 for the same run). */
  Replay: 3,
  /**
   * reserve a run: reserved already by an earlier call with another start time: the same run asked
   * for again (a tick's run, whose id is derived, after a crash between its reservation and its
   * acceptance).
   */
  ReservedBefore: 4,
  /** accept: another execution has this id. */
  IdExists: -1,
  /** accept: the account has its maximum of RUNNING executions. */
  QuotaExceeded: -2,
  /** accept: `{BudgetExceeded, seconds}`: the account is at its budget of stored bytes for that long at least. */
  BudgetExceeded: -3,
  /** accept: the record alone is larger than the account's budget of stored bytes. */
  LargerThanBudget: -4,
  /** checkpoint, end, hand back, suspend: nothing changed, the execution has ended (or is gone). */
  NotRunning: -5,
  /**
   * checkpoint, end, hand back, suspend: nothing changed, the execution is RUNNING under another take's
   * lease (or none, once handed back); for an end of an untaken instant run, a worker has taken it.
   */
  Superseded: -6,
  /** take: `{Deferred, deferrals, waiting, deadline}`: refused, its account has its maximum executing. */
  Deferred: -7,
  /** deliver callback: no such call back (a forged URL, one used already, or expired). */
  Unknown: -8,
  /** accept: `{NotRedrivable, status}`: the execution to redrive has not ended ERROR or TERMINATED_LIMIT ('' when gone). */
  NotRedrivable: -9,
  /** accept: `{RedriveRunning, id}`: redrive `id` of the execution to redrive is still RUNNING. */
  RedriveRunning: -10,
} as const;

export type ScriptReplyCode = (typeof ScriptReply)[keyof typeof ScriptReply];
