import type { ExecutionRecord } from './execution-record.ts';
import type { TerminalStatus } from './execution-status.ts';

/**
 * An execution's end as whoever ended it reports it (a worker, the reconciler, an API that ended
 * a queued run at its termination), for metrics and logs: one event, whichever the ender.
 */
export interface ExecutionEnded {
  id: string;
  account: string;
  choreo: string;
  status: TerminalStatus;
  /** From its start to its end. */
  durationMs: number;
}

export type ExecutionEndListener = (event: ExecutionEnded) => void;

/** The event of an execution that ended with `status` at `endtime` (now when omitted). */
export function executionEnded(
  record: Pick<ExecutionRecord, 'id' | 'account' | 'choreo' | 'starttime'>,
  status: TerminalStatus,
  endtime = Date.now(),
): ExecutionEnded {
  return { id: record.id, account: record.account, choreo: record.choreo, status, durationMs: Math.max(0, endtime - record.starttime) };
}
