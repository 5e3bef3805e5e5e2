import { applyOutputFilters } from '@ces/language';
import type { Sandbox } from '@ces/sandbox';
import type { RunOutcome, StopReason, SuspendedCallback } from '@ces/engine';
import { createDirectLineWriter, jsonString, type Logger } from '@ces/observability';
import { executionEnded, type EndRequest, type EndResult, type ExecutionEndListener, type ExecutionRecord, type TerminalStatus } from '@ces/store';

/** Stop reasons that end the execution, with the status each ends it with. */
const STATUS_FOR_STOP = {
  'termination-requested': 'TERMINATED_MANUALLY',
  'time-limit': 'TERMINATED_LIMIT',
} as const satisfies Partial<Record<StopReason, TerminalStatus>>;

/**
 * What a run's outcome comes to: an end with a terminal status (and the error of a failed step),
 * a stop that leaves the execution RUNNING (handed back, or left to another take), or a
 * suspension until a wait is due.
 */
export type RunConclusion =
  | { kind: 'end'; status: TerminalStatus; error?: string }
  | { kind: 'stop'; reason: Exclude<StopReason, keyof typeof STATUS_FOR_STOP> }
  | { kind: 'suspend'; untilMs: number; callback: SuspendedCallback | undefined; children: readonly string[] };

export function conclusionOf(outcome: RunOutcome): RunConclusion {
  switch (outcome.kind) {
    case 'completed':
      return { kind: 'end', status: 'SUCCESS' };
    case 'failed':
      return { kind: 'end', status: 'ERROR', error: outcome.error };
    case 'suspended':
      return { kind: 'suspend', untilMs: outcome.untilMs, callback: outcome.callback, children: outcome.children ?? [] };
    case 'stopped':
      switch (outcome.reason) {
        case 'termination-requested':
        case 'time-limit':
          return { kind: 'end', status: STATUS_FOR_STOP[outcome.reason] };
        default:
          return { kind: 'stop', reason: outcome.reason };
      }
  }
}

/**
 * What an end records of a run that reached `status`: its outputs through the execution's output
 * filters. A filter that fails turns a SUCCESS into ERROR, saying why; any other status stays, with
 * the outputs unfiltered.
 */
export async function endOfRun(
  record: ExecutionRecord,
  sandbox: Sandbox,
  status: TerminalStatus,
  checkpoint: { outputs: Record<string, string>; nextStep?: number },
  error?: string,
): Promise<Pick<EndRequest, 'status' | 'outputs' | 'nextStep' | 'error'>> {
  let outputs = checkpoint.outputs;
  let finalStatus = status;
  let finalError = error;
  if (record.outputFilters.length > 0) {
    try {
      outputs = await applyOutputFilters(outputs, record.outputFilters, sandbox);
    } catch (filterError) {
      if (status === 'SUCCESS') {
        finalStatus = 'ERROR';
        finalError = `output filter failed: ${(filterError as Error).message}`;
      }
    }
  }
  return {
    status: finalStatus,
    outputs,
    ...(checkpoint.nextStep !== undefined ? { nextStep: checkpoint.nextStep } : {}),
    ...(finalError !== undefined ? { error: finalError } : {}),
  };
}

/**
 * Counts and logs an end the store applied, and tells whether another take had the execution
 * instead (the end changed nothing then).
 */
export function createEndRecorder(deps: { logger: Logger; onExecutionEnd?: ExecutionEndListener }) {
  // Written once per run: serialised directly, without pino's generic path (fields hold no secret).
  const writeLine = createDirectLineWriter(deps.logger);
  return (record: ExecutionRecord, result: EndResult): 'ended' | 'superseded' => {
    if (result.outcome === 'superseded') return 'superseded';
    if (result.outcome === 'ended') {
      deps.onExecutionEnd?.(executionEnded(record, result.status));
      writeLine(
        'info',
        `,"executionId":${jsonString(record.id)},"account":${jsonString(record.account)},"choreo":${jsonString(record.choreo)},"status":"${result.status}"`,
        'execution ended',
      );
    }
    return 'ended';
  };
}

export type EndRecorder = ReturnType<typeof createEndRecorder>;
