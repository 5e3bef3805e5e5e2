import { createHash } from 'node:crypto';
import { bindInputs } from '@ces/language';
import { isTerminal, sendAcceptance, type DefinitionStore, type ExecutionJobData, type ExecutionStore, type NewExecution } from '@ces/store';
import type { Queue } from 'bullmq';
import type { ChildChoreoLookup } from './child-choreos.ts';
import type { StartTick } from './schedule-firer.ts';

/**
 * The id of the run a tick starts: derived from the tick's identity (account, schedule, scheduled
 * time), so a tick fired again after a crash finds the run it had accepted ('exists') instead of
 * starting a second one. 32 hex characters, like every execution id.
 */
export function tickExecutionId(account: string, schedule: string, scheduledTime: number): string {
  return createHash('sha256').update(`schedule\n${account}\n${schedule}\n${scheduledTime}`).digest('hex').slice(0, 32);
}

export interface TickStarterDeps {
  executions: ExecutionStore;
  definitions: DefinitionStore;
  queue: Queue<ExecutionJobData>;
  lookup: ChildChoreoLookup;
  maxStoredBytesPerAccount: number;
  defaultTimeLimitSeconds: number;
}

/**
 * Starts the run of a tick under its schedule's overlap policy. `skip` starts nothing while the run
 * of the schedule's last fired tick is still RUNNING; `allow-all` always starts.
 */
export function createTickStarter(deps: TickStarterDeps): StartTick {
  const { executions, definitions, queue, lookup } = deps;
  return async ({ schedule, scheduledTime }) => {
    const id = tickExecutionId(schedule.account, schedule.name, scheduledTime);
    // A repeat of a tick whose run was accepted before a crash: the run is this tick's, started.
    if ((await executions.summary(id, { withOutputs: false })) !== undefined) return 'started';
    if (schedule.spec.overlap !== 'allow-all' && schedule.lastTick !== undefined) {
      const previous = await executions.summary(tickExecutionId(schedule.account, schedule.name, schedule.lastTick), { withOutputs: false });
      if (previous !== undefined && !isTerminal(previous.status)) return 'skipped';
    }
    const choreo = await lookup.find(schedule.account, schedule.spec.choreo);
    // A Choreo gone or broken since the schedule was written: the tick cannot start; it is counted skipped.
    if (choreo === undefined) return 'skipped';
    const given = Object.fromEntries(schedule.spec.inputs.map(({ name, value }) => [name, typeof value === 'string' ? value : JSON.stringify(value)]));
    const bound = bindInputs(choreo.definition, given);
    if (!bound.ok) return 'skipped';
    await definitions.save(choreo.digest, choreo.definition);
    const starttime = Date.now();
    const limit = choreo.definition.timeLimitSeconds ?? deps.defaultTimeLimitSeconds;
    const accepted: NewExecution = {
      id,
      account: schedule.account,
      choreo: choreo.id,
      starttime,
      sourceId: '',
      definitionDigest: choreo.digest,
      inputs: bound.inputs,
      deadline: starttime + limit * 1000,
      storeResults: true,
      outputFilters: [],
    };
    const sent = sendAcceptance({ executions, queue }, accepted, {
      maxRunningPerAccount: 0,
      maxStoredBytesPerAccount: deps.maxStoredBytesPerAccount,
      instant: choreo.instant,
    });
    const result = await sent.accepted;
    // A job lost on the way is queued by the reconciler, which looks for RUNNING runs without one.
    await sent.queued.catch(() => {});
    if (result.outcome === 'accepted' || result.outcome === 'exists') return 'started';
    // Refused for the account's storage budget: the tick starts nothing and is counted skipped.
    return 'skipped';
  };
}
