import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/**
 * The Lua scripts of `lua/` by the command each is registered as on a connection. What a script
 * needs besides its own file it says itself: `--- @include "<file>"` lines (Redis scripts have no
 * include), and its number of KEYS is the number its header documents (`KEYS[1]`…`KEYS[n]`).
 */
const SCRIPTS = {
  acceptExecution: 'accept-execution.lua',
  acceptExecutions: 'accept-executions.lua',
  takeExecution: 'take-execution.lua',
  checkpointExecution: 'checkpoint-execution.lua',
  recordProgress: 'record-progress.lua',
  endExecution: 'end-execution.lua',
  requestTermination: 'request-termination.lua',
  handBackExecution: 'hand-back-execution.lua',
  suspendExecution: 'suspend-execution.lua',
  deliverCallback: 'deliver-callback.lua',
  reserveRuns: 'reserve-runs.lua',
  releaseRuns: 'release-runs.lua',
  reserveExecuting: 'reserve-executing.lua',
  // An account's own Choreos, apart from the executions' scripts and their reply codes.
  putAccountChoreo: 'accounts/put-account-choreo.lua',
  putPreset: 'put-preset.lua',
  resealField: 'reseal-field.lua',
  storeToken: 'store-token.lua',
  lockToken: 'lock-token.lua',
  setTokenValidity: 'set-token-validity.lua',
  deleteToken: 'delete-token.lua',
  recordCallback: 'record-callback.lua',
  claimDueSchedules: 'claim-due-schedules.lua',
  advanceSchedules: 'advance-schedules.lua',
  setSchedulePaused: 'set-schedule-paused.lua',
  putWebhook: 'put-webhook.lua',
  deleteWebhook: 'delete-webhook.lua',
  mirrorWebhookEvents: 'mirror-webhook-events.lua',
  claimWebhookEvents: 'claim-webhook-events.lua',
  openWebhookDeliveries: 'open-webhook-deliveries.lua',
  recordWebhookAttempts: 'record-webhook-attempts.lua',
  redeliverWebhook: 'redeliver-webhook.lua',
  recordScheduleRun: 'record-schedule-run.lua',
  bufferScheduleTick: 'buffer-schedule-tick.lua',
  putSchedule: 'put-schedule.lua',
} as const;

export type ScriptName = keyof typeof SCRIPTS;
type ScriptArg = string | number;

/**
 * Runs a script; `acknowledge: false` runs one of the acknowledged without its WAIT, for a caller
 * that confirms the write replicated itself before it tells anyone (ExecutionStore.confirmReplicated).
 */
export type ScriptRunner = (name: ScriptName, keys: string[], args: ScriptArg[], options?: { acknowledge?: boolean }) => Promise<unknown>;

/** A script ready to register: its includes set before its own text, and how many KEYS it takes. */
export interface AssembledScript {
  lua: string;
  keys: number;
  /** The files it is made of, includes first, in the order they are set. */
  files: string[];
}

const INCLUDE_LINE = /^--- @include "([^"]+)"\s*$/gm;

/** The files a Lua file includes, in the order its `--- @include` lines name them. */
export function includesOf(source: string): string[] {
  return [...source.matchAll(INCLUDE_LINE)].map(([, file]) => file as string);
}

/**
 * The number of KEYS a script's header documents: lines `KEYS[1]`…`KEYS[n]`, each once and none
 * missing, so that the count registered is the one a reader of the header sees.
 */
export function keysDocumented(file: string, source: string): number {
  const end = source.indexOf(']]');
  const header = source.startsWith('--[[') && end > 0 ? source.slice(0, end) : '';
  const numbers = [...header.matchAll(/^\s*KEYS\[(\d+)\]/gm)].map(([, n]) => Number(n));
  const expected = numbers.map((_, index) => index + 1);
  if (numbers.length === 0 || numbers.join() !== expected.join()) {
    throw new Error(`${file}: its header must document KEYS[1] to KEYS[n] in order, once each (found ${numbers.join(', ') || 'none'})`);
  }
  return numbers.length;
}

/**
 * A Lua file with what it includes, recursively: each included file once, set before the first
 * file that includes it, in the order the includes are named (depth first), so the text and
 * thereby the script's SHA are stable. A file included and missing, or a cycle, is an error.
 */
export function resolveIncludes(file: string, read: (file: string) => string | undefined): { lua: string; files: string[] } {
  const order: string[] = [];
  const texts = new Map<string, string>();
  const visit = (current: string, path: readonly string[]) => {
    if (texts.has(current)) return;
    if (path.includes(current)) throw new Error(`Lua include cycle: ${[...path, current].join(' → ')}`);
    const text = read(current);
    if (text === undefined) {
      const by = path.at(-1);
      throw new Error(by === undefined ? `Lua file ${current} not found` : `${by} includes ${current}, which does not exist`);
    }
    for (const include of includesOf(text)) visit(include, [...path, current]);
    texts.set(current, text);
    order.push(current);
  };
  visit(file, []);
  return { lua: order.map((name) => texts.get(name)).join(''), files: order };
}

/** A script with its includes (resolveIncludes) and the number of KEYS its header documents. */
export function assembleScript(file: string, read: (file: string) => string | undefined): AssembledScript {
  const { lua, files } = resolveIncludes(file, read);
  return { lua, files, keys: keysDocumented(file, read(file) ?? '') };
}

/** A file of `lua/`, undefined when there is none. */
export function readLuaFile(file: string): string | undefined {
  try {
    return readFileSync(new URL(`./lua/${file}`, import.meta.url), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Every registered script's file, by command name. */
export function scriptFiles(): Readonly<Record<ScriptName, string>> {
  return SCRIPTS;
}

const assembled = new Map<ScriptName, AssembledScript>();
function script(name: ScriptName): AssembledScript {
  let found = assembled.get(name);
  if (found === undefined) {
    found = assembleScript(SCRIPTS[name], readLuaFile);
    assembled.set(name, found);
  }
  return found;
}

/** Errors of a Cluster node that did not run the command: a redirection, or no primary for the slot yet. */
const NOT_RUN_HERE = /^(MOVED|ASK|CLUSTERDOWN|TRYAGAIN) /;
/** How often, and how far apart, an acknowledged script refused that way is sent again: about a failover's length. */
const MOST_RESENDS = 50;
const RESEND_DELAY_MS = 200;

/** REDIS_REPLICA_ACKS: how many replicas must hold a write before it counts as made. */
export interface ReplicaAcks {
  replicas: number;
  /** Longest wait for them; past it the write fails with ReplicationShortError… */
  timeoutMs: number;
  /**
   * …unless this is set: a worker keeps waiting (the write is made on the primary; what must not
   * happen is the run going on to its next effect before a replica holds it), and is told of each
   * timeout that passes.
   */
  untilAcknowledged?: (shortfall: ReplicationShortError) => void;
}

/** A write that the primary made but fewer replicas than required hold (yet). */
export class ReplicationShortError extends Error {
  readonly script: ScriptName;
  readonly acknowledged: number;
  readonly required: number;
  constructor(script: ScriptName, acknowledged: number, required: number) {
    super(`${script}: ${acknowledged} of ${required} replicas acknowledged the write in time`);
    this.name = 'ReplicationShortError';
    this.script = script;
    this.acknowledged = acknowledged;
    this.required = required;
  }
}

/**
 * Registers the scripts on a connection. ioredis then calls them by EVALSHA and reloads them
 * by itself after a NOSCRIPT (a restarted or failed-over Redis). With `replicaAcks`, the scripts
 * named in `acknowledged` are followed by a WAIT in the same pipeline, so that it goes to the
 * script's own node (on a Cluster, a command without keys would go to any node) on the same
 * connection, and counts this write.
 */
export function registerScripts(redis: Redis, options: { replicaAcks?: ReplicaAcks; acknowledged?: readonly ScriptName[] } = {}): ScriptRunner {
  for (const name of Object.keys(SCRIPTS) as ScriptName[]) {
    const { lua, keys } = script(name);
    redis.defineCommand(name, { numberOfKeys: keys, lua });
  }
  const acks = options.replicaAcks && options.replicaAcks.replicas > 0 ? options.replicaAcks : undefined;
  const acknowledged = new Set(acks ? options.acknowledged : []);
  return async (name, keys, args, { acknowledge = true } = {}) => {
    const expected = script(name).keys;
    if (keys.length !== expected) throw new Error(`${name} takes ${expected} keys`);
    if (acks === undefined || !acknowledged.has(name) || !acknowledge) {
      const command = (redis as unknown as Record<ScriptName, (...a: ScriptArg[]) => Promise<unknown>>)[name];
      return command.call(redis, ...keys, ...args);
    }
    let sent: [Error | null, unknown][] = [];
    for (let attempt = 1; ; attempt += 1) {
      const pipeline = redis.pipeline();
      (pipeline as unknown as Record<ScriptName, (...a: ScriptArg[]) => unknown>)[name].call(pipeline, ...keys, ...args);
      pipeline.call('WAIT', acks.replicas, acks.timeoutMs);
      sent = ((await pipeline.exec()) ?? []) as [Error | null, unknown][];
      const [scriptError] = sent[0] ?? [null];
      // A Cluster's client follows a redirection of a command alone, not of one in a pipeline beside
      // a WAIT: a script refused by a node that no longer (or not yet) serves its slot did not run
      // there, and is sent again once the client has the slots as they are now.
      if (!scriptError || !NOT_RUN_HERE.test(scriptError.message) || attempt >= MOST_RESENDS) break;
      await (redis as unknown as { refreshSlotsCache?: (callback: () => void) => void }).refreshSlotsCache?.(() => {});
      await new Promise((resolve) => setTimeout(resolve, RESEND_DELAY_MS));
    }
    const [[scriptError, reply] = [null, undefined], [waitError, replicas] = [null, 0]] = sent;
    if (scriptError) throw scriptError;
    if (waitError) throw waitError;
    let acknowledgedBy = Number(replicas);
    while (acknowledgedBy < acks.replicas) {
      const shortfall = new ReplicationShortError(name, acknowledgedBy, acks.replicas);
      if (!acks.untilAcknowledged) throw shortfall;
      acks.untilAcknowledged(shortfall);
      // WAIT counts every write this connection made before it; the key read takes it to the
      // script's node on a Cluster.
      const again = redis.pipeline();
      again.exists(keys[0] as string);
      again.call('WAIT', acks.replicas, acks.timeoutMs);
      const [, [againError, count] = [null, 0]] = (await again.exec()) ?? [];
      if (againError) throw againError;
      acknowledgedBy = Number(count);
    }
    return reply;
  };
}
