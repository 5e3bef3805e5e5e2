import {
  bindInputs,
  BLOCK_ENDED,
  type ChildEnd,
  type ChoreoDefinition,
  ChildRefusedError,
  type ChildRuns,
  MAX_CHILD_DEPTH,
  StepAbortedError,
  StepFailedError,
  StepTimeoutError,
} from '@ces/language';
import {
  isTerminal,
  redriveStart,
  sendAcceptance,
  terminateExecution,
  type DefinitionStore,
  derivedExecutionId,
  executionShard,
  type ExecutionEvents,
  type ExecutionQueues,
  type ExecutionRecord,
  type ExecutionStore,
  type NewExecution,
  type RedriveStart,
  type SecretCipher,
  openSealedOutputs,
  sealRunInputs,
} from '@ces/store';
import type { ChildChoreoLookup } from './child-choreos.ts';

/** Statuses a failed child is redriven from by its parent's redrive. */
const REDRIVABLE = new Set(['ERROR', 'TERMINATED_LIMIT']);

/** Longest single wait for an end message; a wait that long is simply started again. */
const MAX_WAIT_MS = 60 * 60 * 1000;

/**
 * The id of the child a step starts: derived from the parent's id and the step's address, so a
 * parent resumed after its worker died finds the child it had accepted instead of starting a
 * second one. On its parent's shard: a parent's end reaches its children, and a child's end its
 * parent, within one slot.
 */
export function childExecutionId(parentId: string, address: string): string {
  return derivedExecutionId(`${parentId}\n${address}`, executionShard(parentId));
}

export interface ChildRunsDeps {
  executions: ExecutionStore;
  definitions: DefinitionStore;
  queues: ExecutionQueues;
  /** Created to listen for 'child-ends': a child is accepted with its end published there. */
  events: ExecutionEvents;
  lookup: ChildChoreoLookup;
  /** Bytes an account may store over the retention period (0: no limit), as for any run. */
  maxStoredBytesPerAccount: number;
  /** Seals a child's inputs its Choreo declares secret, as the API does; absent without SECRETS_KEY. */
  cipher?: SecretCipher;
}

/** Makes the ChildRuns of one parent run: children accepted under its account, within its deadline. */
export function createChildRunsFactory(deps: ChildRunsDeps): (parent: ExecutionRecord) => ChildRuns {
  const { executions, definitions, queues, events, lookup } = deps;

  async function ended(id: string): Promise<ChildEnd | undefined> {
    const record = await executions.get(id);
    if (record === undefined) return { status: 'ERROR', outputs: {}, error: 'the child execution is no longer kept' };
    if (!isTerminal(record.status)) return undefined;
    return endOf(record, deps.cipher);
  }

  /**
   * When `parent` redrives a run, the child that run's step at `address` started, if it failed:
   * the child this step starts then redrives it (with the definition it ran, from what it
   * completed) instead of starting afresh. Undefined when there is none to redrive, it ran another
   * Choreo, or what it keeps cannot be read (no key for its sealed results): the child starts afresh.
   */
  async function failedChildToRedrive(parent: ExecutionRecord, address: string, choreo: string, id: string) {
    if (parent.redriveOf === undefined) return undefined;
    const source = await executions.redriveSource(childExecutionId(parent.redriveOf, address));
    if (source === undefined || source.record.choreo !== choreo || !REDRIVABLE.has(source.record.status)) return undefined;
    const snapshot = await definitions.load(source.record.definitionDigest);
    if (snapshot === undefined) return undefined;
    let start: RedriveStart;
    try {
      start = redriveStart(deps.cipher, source, JSON.parse(snapshot) as ChoreoDefinition, id);
    } catch {
      return undefined;
    }
    return { of: source.record.id, definitionDigest: source.record.definitionDigest, start };
  }

  return (parent) => ({
    async start({ choreo, inputs, address, resumed }) {
      // Suspended waiting for this child, the run accepted it then: it is not accepted again (which
      // would queue a job for it again, for nothing once it has ended, or run it a second time once
      // its record has expired: its end then reads as no longer kept).
      if (resumed === true) return { id: childExecutionId(parent.id, address) };
      const depth = (parent.depth ?? 0) + 1;
      if (depth > MAX_CHILD_DEPTH) throw new ChildRefusedError(`sub-Choreos nest at most ${MAX_CHILD_DEPTH} deep; ${choreo} would run at depth ${depth}`);
      const child = await lookup.find(parent.account, choreo);
      if (child === undefined) throw new ChildRefusedError(`no valid Choreo ${choreo} is visible to this account`);
      const bound = bindInputs(child.definition, inputs);
      if (!bound.ok) throw new ChildRefusedError(`${choreo}: required input${bound.missing.length > 1 ? 's' : ''} missing: ${bound.missing.join(', ')}`);
      await definitions.save(child.digest, child.definition);
      const id = childExecutionId(parent.id, address);
      // Inputs the child's Choreo declares secret are kept sealed, never in clear in its record.
      const own: Record<string, string> = {};
      const secret: Record<string, string> = {};
      for (const [name, value] of Object.entries(bound.inputs)) {
        if (child.definition.inputs[name]?.secret === true) secret[name] = value;
        else own[name] = value;
      }
      const hasSecret = Object.keys(secret).length > 0;
      if (hasSecret && deps.cipher === undefined) {
        throw new StepFailedError(`${choreo}: its secret inputs cannot be kept: this worker has no SECRETS_KEY`);
      }
      const redriven = await failedChildToRedrive(parent, address, child.id, id);
      const starttime = Date.now();
      const ownLimit = child.definition.timeLimitSeconds;
      const accepted: NewExecution = {
        id,
        account: parent.account,
        choreo: child.id,
        starttime,
        sourceId: '',
        definitionDigest: redriven?.definitionDigest ?? child.digest,
        inputs: own,
        ...(hasSecret && deps.cipher ? { sealedInputs: sealRunInputs(deps.cipher, id, secret) } : {}),
        // Never past the parent's: a child outliving its parent's limit would run for nobody.
        deadline: ownLimit === undefined ? parent.deadline : Math.min(parent.deadline, starttime + ownLimit * 1000),
        storeResults: true,
        outputFilters: [],
        parent: parent.id,
        depth,
        // Its URLs are made under its parent's public address, as the parent's caller reached the service.
        ...(parent.publicBaseUrl !== undefined ? { publicBaseUrl: parent.publicBaseUrl } : {}),
        ...(redriven !== undefined ? { redriveOf: redriven.of } : {}),
      };
      // Not refused by the account's quota of running executions: its parent already holds a place,
      // and a parent waiting for a child that may never start would hold it for nothing.
      const accept = (execution: NewExecution, redrive?: RedriveStart) => {
        const sent = sendAcceptance({ executions, queues }, execution, {
          maxRunningPerAccount: 0,
          maxStoredBytesPerAccount: deps.maxStoredBytesPerAccount,
          notifyParent: true,
          // Its parent's watchers see it start, in the script that accepts it.
          childOf: { address },
          ...(redrive !== undefined ? { redrive } : {}),
          // A job carries no sealed inputs: a child with secret inputs is taken, where they are
          // opened; a redrive is taken too, to resume from what the child it redrives completed.
          instant: child.instant && !hasSecret && redrive === undefined,
        });
        // A job that did not reach the queue is queued by the reconciler: the child is recorded.
        const queued = sent.queued.catch(() => {});
        return sent.accepted.then(async (result) => {
          await queued;
          return result;
        });
      };
      let result = await accept(accepted, redriven?.start);
      if (result.outcome === 'not-redrivable' || result.outcome === 'redrive-running') {
        // Redriven meanwhile by someone else (or gone): this step's child starts afresh.
        const { redriveOf: _redriveOf, ...fresh } = accepted;
        result = await accept({ ...fresh, definitionDigest: child.digest });
      }
      switch (result.outcome) {
        case 'accepted':
        // Accepted by an earlier take of the parent: the same child, whatever became of it. Its job
        // is queued again, which changes nothing when it still has one; a child that has ended
        // (its job removed) gets a job that finds it ended and completes.
        case 'exists':
          return { id: accepted.id };
        case 'larger-than-budget':
        case 'budget-exceeded':
          throw new StepFailedError(`${choreo}: the account has stored all it may keep over the retention period`);
        default:
          throw new StepFailedError(`${choreo}: the child execution was not accepted (${result.outcome})`);
      }
    },

    async awaitEnd(id, signal) {
      for (;;) {
        if (signal.aborted) throw await stopWaiting(id, signal.reason);
        // Listening before reading, so that an end in between is not missed.
        const watch = events.watchEnd(id, async () => (await ended(id)) !== undefined);
        const already = await ended(id).catch((error: unknown) => {
          watch.cancel();
          throw error;
        });
        if (already !== undefined) {
          watch.cancel();
          return already;
        }
        // Aborted while the status was read: no abort event will come any more.
        if (signal.aborted) {
          watch.cancel();
          continue;
        }
        const onAbort = () => watch.cancel();
        signal.addEventListener('abort', onAbort, { once: true });
        try {
          const outcome = await watch.wait(MAX_WAIT_MS);
          if (outcome.ended)
            return outcome.record !== undefined && isTerminal(outcome.record.status)
              ? endOf(outcome.record, deps.cipher)
              : ((await ended(id)) ?? (await failedRead(id)));
        } finally {
          signal.removeEventListener('abort', onAbort);
        }
      }
    },
  });

  /**
   * The parent stops waiting. A parent terminated, its step timed out, or its block ended without
   * it (another branch failed: BLOCK_ENDED), terminates its child (the store has flagged or ended it already when the parent's termination came first; this also
   * takes a queued child's job out of the queue); a parent that reached its time limit or fails
   * terminates it by its end (end-execution.lua); one only stopping (its worker shutting down, the
   * run taken over) leaves it running for the next take.
   */
  async function stopWaiting(id: string, reason: unknown): Promise<StepAbortedError> {
    if (reason === 'termination-requested' || reason === BLOCK_ENDED || reason instanceof StepTimeoutError)
      await terminateExecution({ executions, queues }, id);
    return new StepAbortedError(reason);
  }

  async function failedRead(id: string): Promise<ChildEnd> {
    return { status: 'ERROR', outputs: {}, error: `the end of child execution ${id} could not be read` };
  }
}

/** A child's end as its parent's step sees it: its secret outputs opened, as its caller would get them. */
function endOf(record: ExecutionRecord, cipher: SecretCipher | undefined): ChildEnd {
  return {
    status: record.status,
    outputs: openSealedOutputs(cipher, record.id, record.output),
    ...(record.lasterror !== undefined ? { error: record.lasterror } : {}),
  };
}
