import { applyOutputFilters, type ChoreoDefinition, type StepLibrary } from '@ces/choreos';
import { runChoreo, type RunOutcome, type StopReason } from '@ces/engine';
import type { Logger } from '@ces/observability';
import type { DefinitionStore, ExecutionRecord, ExecutionStore, TerminalStatus } from '@ces/store';

/** What the processor asks of the queue: nothing of BullMQ leaks past this interface. */
export interface ProcessingContext {
  executionId: string;
  /** Puts the execution back in the queue for another worker (graceful shutdown). */
  handBack(): Promise<void>;
}

export type ProcessResult = 'ended' | 'skipped' | 'handed-back';

export interface ExecutionProcessor {
  process(context: ProcessingContext): Promise<ProcessResult>;
  /** Termination was requested: a wait in progress stops now, other steps run to their end. */
  cancel(executionId: string): void;
  /** Stops every run at its next step boundary and hands it back. */
  beginShutdown(): void;
  /** Past the grace period: interrupts even waits, so runs are handed back at once. */
  interruptAll(): void;
  activeIds(): string[];
}

interface ActiveRun {
  controller: AbortController;
  stop?: StopReason;
}

const STATUS_FOR_STOP: Record<Exclude<StopReason, 'shutdown'>, TerminalStatus> = {
  cancelled: 'TERMINATED_MANUALLY',
  'time-limit': 'TERMINATED_LIMIT',
};

export function createExecutionProcessor(deps: {
  executions: ExecutionStore;
  definitions: DefinitionStore;
  steps: StepLibrary;
  host: string;
  workerId: string;
  logger: Logger;
  onStepEnd?: (event: { choreo: string; kind: string; durationMs: number; ok: boolean }) => void;
  onExecutionEnd?: (event: { choreo: string; account: string; status: TerminalStatus; durationMs: number }) => void;
}): ExecutionProcessor {
  const { executions, definitions, steps, host, workerId, logger } = deps;
  const active = new Map<string, ActiveRun>();
  const parsedDefinitions = new Map<string, ChoreoDefinition>();
  let shuttingDown = false;

  async function definitionFor(record: ExecutionRecord): Promise<ChoreoDefinition | undefined> {
    const cached = parsedDefinitions.get(record.definitionDigest);
    if (cached) return cached;
    const json = await definitions.load(record.definitionDigest);
    if (json === undefined) return undefined;
    const definition = JSON.parse(json) as ChoreoDefinition;
    parsedDefinitions.set(record.definitionDigest, definition);
    return definition;
  }

  async function end(record: ExecutionRecord, status: TerminalStatus, outputs: Record<string, string>, error?: string) {
    let finalOutputs = outputs;
    let finalStatus = status;
    let finalError = error;
    if (record.outputFilters.length > 0) {
      try {
        finalOutputs = applyOutputFilters(outputs, record.outputFilters);
      } catch (filterError) {
        if (status === 'SUCCESS') {
          finalStatus = 'ERROR';
          finalError = `output filter failed: ${(filterError as Error).message}`;
        }
      }
    }
    const result = await executions.finish(record.id, {
      status: finalStatus,
      outputs: finalOutputs,
      account: record.account,
      ...(finalError !== undefined ? { error: finalError } : {}),
    });
    if (result.applied && result.status) {
      deps.onExecutionEnd?.({ choreo: record.choreo, account: record.account, status: result.status, durationMs: Date.now() - record.starttime });
      logger.info({ executionId: record.id, account: record.account, choreo: record.choreo, status: result.status }, 'execution ended');
    }
  }

  return {
    async process({ executionId, handBack }) {
      const record = await executions.claim(executionId, host, workerId);
      if (!record || record.status !== 'RUNNING') return 'skipped';
      const log = logger.child({ executionId, account: record.account, choreo: record.choreo });
      const definition = await definitionFor(record);
      if (!definition) {
        await end(record, 'ERROR', record.output, 'the definition this run was accepted with is missing');
        return 'ended';
      }
      const run: ActiveRun = { controller: new AbortController() };
      if (record.cancelRequested) run.stop = 'cancelled';
      active.set(executionId, run);
      log.debug({ resumeAt: record.nextStep }, 'execution taken');
      let outcome: RunOutcome;
      try {
        outcome = await runChoreo({
          definition,
          inputs: record.inputs,
          steps,
          resumeFrom: { nextStep: record.nextStep, results: record.results, outputs: record.output },
          signal: run.controller.signal,
          hooks: {
            beforeStep: () => {
              if (run.stop) return run.stop;
              if (shuttingDown) return 'shutdown';
              if (Date.now() >= record.deadline) return 'time-limit';
              return undefined;
            },
            afterStep: async (checkpoint) => {
              const result = await executions.checkpoint(executionId, checkpoint);
              if (result === 'cancel' || result === 'gone') run.stop = 'cancelled';
              return run.stop;
            },
          },
          onStepEnd: (event) => deps.onStepEnd?.({ choreo: record.choreo, kind: event.kind, durationMs: event.durationMs, ok: event.ok }),
        });
      } finally {
        active.delete(executionId);
      }

      switch (outcome.kind) {
        case 'completed':
          await end(record, 'SUCCESS', outcome.checkpoint.outputs);
          return 'ended';
        case 'failed':
          await end(record, 'ERROR', outcome.checkpoint.outputs, outcome.error);
          return 'ended';
        case 'stopped':
          if (outcome.reason === 'shutdown') {
            // The checkpoint is already stored after every completed step; the next worker resumes there.
            await executions.release(executionId, workerId);
            await handBack();
            log.info({ nextStep: outcome.checkpoint.nextStep }, 'execution handed back');
            return 'handed-back';
          }
          await end(record, STATUS_FOR_STOP[outcome.reason], outcome.checkpoint.outputs);
          return 'ended';
      }
    },

    cancel(executionId) {
      const run = active.get(executionId);
      if (!run) return;
      run.stop = 'cancelled';
      run.controller.abort('cancelled');
    },

    beginShutdown() {
      shuttingDown = true;
    },

    interruptAll() {
      shuttingDown = true;
      for (const run of active.values()) run.controller.abort('shutdown');
    },

    activeIds() {
      return [...active.keys()];
    },
  };
}
