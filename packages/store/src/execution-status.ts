/** The five statuses an execution can have; every one but RUNNING is final. */
export const EXECUTION_STATUSES = ['RUNNING', 'SUCCESS', 'ERROR', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'] as const;

export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];
export type TerminalStatus = Exclude<ExecutionStatus, 'RUNNING'>;
export const TERMINAL_STATUSES: readonly TerminalStatus[] = ['SUCCESS', 'ERROR', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'];

export function isTerminal(status: ExecutionStatus): status is TerminalStatus {
  return status !== 'RUNNING';
}
