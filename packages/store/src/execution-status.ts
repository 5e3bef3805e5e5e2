/**
 * Every status an execution can have, each final but RUNNING. The phases of a RUNNING execution
 * are told apart by its record, not its status: waiting for a take (`host` ''), or taken by a
 * worker (`host`, `worker` and `lease` set); see ExecutionStore for the transitions between them.
 */
export const EXECUTION_STATUSES = [
  /** Accepted and not ended: waiting in the queue (or deferred), or taken by a worker. */
  'RUNNING',
  /** Every step completed; the outputs are those of the last step. */
  'SUCCESS',
  /** A step failed after its retries (or the job kept failing): `lasterror` and `errortime` say why and when. */
  'ERROR',
  /** Termination was requested (DELETE): ended after its current step, with the outputs so far. */
  'TERMINATED_MANUALLY',
  /** Past its deadline (the Choreo's time limit): ended after its current step, with the outputs so far. */
  'TERMINATED_LIMIT',
] as const;

export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export type TerminalStatus = Exclude<ExecutionStatus, 'RUNNING'>;
export const TERMINAL_STATUSES: readonly TerminalStatus[] = ['SUCCESS', 'ERROR', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'];

/** Whether an execution has ended: nothing ever changes its status again. */
export function isTerminal(status: ExecutionStatus): status is TerminalStatus {
  return status !== 'RUNNING';
}
