import { bindInputs } from '@ces/language';
import {
  type DefinitionStore,
  type ExecutionQueues,
  type ExecutionStore,
  type NewExecution,
  type PresetStore,
  type SecretCipher,
  sealRunInputs,
  tickExecutionId,
} from '@ces/store';
import type { ChildChoreoLookup } from './child-choreos.ts';
import type { StartTick } from './schedule-firer.ts';
import { createTickAcceptances } from './tick-acceptances.ts';

export class ScheduleRefusedError extends Error {}

export interface ScheduleRunsDeps {
  executions: ExecutionStore;
  definitions: DefinitionStore;
  /** Every shard's queue: a tick's run is on the shard its schedule maps to (tickExecutionId). */
  queues: ExecutionQueues;
  /** How many shards a tick at a time maps among (ShardLayout.shardsAt): the same in every process. */
  shardsAt: (time: number) => number;
  lookup: ChildChoreoLookup;
  maxRunningPerAccount: number;
  maxStoredBytesPerAccount: number;
  defaultTimeLimitSeconds: number;
  /** Seals the inputs a Choreo declares secret, as the API does; absent without SECRETS_KEY. */
  cipher?: SecretCipher;
  /** Where a schedule's `preset` is read; absent without SECRETS_KEY. */
  presets?: PresetStore;
  now?: () => number;
}

/**
 * Starts the run of a tick under the schedule's overlap policy. `skip` and `buffer-one` start
 * nothing while the run of the schedule's last fired tick is RUNNING (the firer skips the tick or
 * keeps it waiting); `allow-all` always starts.
 */
export function createScheduleRuns(deps: ScheduleRunsDeps): StartTick {
  const { executions, definitions, queues, lookup, shardsAt, now = Date.now } = deps;
  const accept = createTickAcceptances(
    { executions, queues },
    { maxRunningPerAccount: deps.maxRunningPerAccount, maxStoredBytesPerAccount: deps.maxStoredBytesPerAccount },
  );

  async function presetInputs(name: string | undefined, account: string): Promise<Record<string, string>> {
    if (name === undefined) return {};
    if (deps.presets === undefined) throw new ScheduleRefusedError(`preset ${name} cannot be read without SECRETS_KEY`);
    const inputs = await deps.presets.read(account, name);
    if (inputs === undefined) throw new ScheduleRefusedError(`account ${account} has no preset ${name}`);
    return Object.fromEntries(inputs.map((input) => [input.name, input.value]));
  }

  return async ({ schedule, scheduledTime }) => {
    const { account, name, spec } = schedule;
    const id = tickExecutionId(account, name, scheduledTime, shardsAt(scheduledTime));
    // Fired again after a crash: its run exists, whatever the previous run does now. Under
    // allow-all the accept below finds it (`exists`), so nothing is read first: one round trip
    // less for every tick. Otherwise both runs are read at once.
    if (spec.overlap !== 'allow-all' && schedule.lastTick !== undefined) {
      const [own, previous] = await Promise.all([
        executions.summary(id, { withOutputs: false }),
        executions.summary(tickExecutionId(account, name, schedule.lastTick, shardsAt(schedule.lastTick)), { withOutputs: false }),
      ]);
      if (own !== undefined) return 'started';
      if (previous?.status === 'RUNNING') return 'busy';
    }
    const choreo = await lookup.find(account, spec.choreo);
    if (choreo === undefined) throw new ScheduleRefusedError(`no valid Choreo ${spec.choreo} is visible to account ${account}`);
    const own = Object.fromEntries(spec.inputs.map((input) => [input.name, input.value]));
    const preset = await presetInputs(spec.preset, account);
    const bound = bindInputs(choreo.definition, { ...preset, ...own });
    if (!bound.ok) throw new ScheduleRefusedError(`${spec.choreo}: required inputs missing: ${bound.missing.join(', ')}`);
    await definitions.save(choreo.digest, choreo.definition);
    // As a run that names a preset: what came from it, and what the Choreo declares secret, is sealed.
    const kept: Record<string, string> = {};
    const secret: Record<string, string> = {};
    for (const [input, value] of Object.entries(bound.inputs)) {
      const fromPreset = Object.hasOwn(preset, input) && !Object.hasOwn(own, input);
      if (fromPreset || choreo.definition.inputs[input]?.secret === true) secret[input] = value;
      else kept[input] = value;
    }
    const hasSecret = Object.keys(secret).length > 0;
    if (hasSecret && deps.cipher === undefined) throw new ScheduleRefusedError(`${spec.choreo}: its secret inputs cannot be kept without SECRETS_KEY`);
    const starttime = now();
    const execution: NewExecution = {
      id,
      account,
      choreo: choreo.id,
      starttime,
      sourceId: '',
      definitionDigest: choreo.digest,
      inputs: kept,
      ...(hasSecret && deps.cipher ? { sealedInputs: sealRunInputs(deps.cipher, id, secret) } : {}),
      deadline: starttime + (choreo.definition.timeLimitSeconds ?? deps.defaultTimeLimitSeconds) * 1000,
      storeResults: true,
      outputFilters: [],
      schedule: { name, scheduledTime },
    };
    const result = await accept(execution);
    if (result.outcome === 'accepted' || result.outcome === 'exists') return 'started';
    // Refused by the account's limits: the tick's lease ends and it is tried again.
    throw new ScheduleRefusedError(`the run of tick ${scheduledTime} was not accepted (${result.outcome})`);
  };
}
