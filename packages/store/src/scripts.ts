import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/**
 * The Lua scripts of `lua/` by the command each is registered as on a connection. What a script
 * needs besides its own file it says itself: `--- @include "<file>"` lines (Redis scripts have no
 * include), and its number of KEYS is the number its header documents (`KEYS[1]`…`KEYS[n]`).
 */
const SCRIPTS = {
  acceptExecution: 'accept-execution.lua',
  takeExecution: 'take-execution.lua',
  checkpointExecution: 'checkpoint-execution.lua',
  recordProgress: 'record-progress.lua',
  endExecution: 'end-execution.lua',
  requestTermination: 'request-termination.lua',
  handBackExecution: 'hand-back-execution.lua',
  suspendExecution: 'suspend-execution.lua',
  deliverCallback: 'deliver-callback.lua',
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
  advanceSchedule: 'advance-schedule.lua',
  setSchedulePaused: 'set-schedule-paused.lua',
  putWebhook: 'put-webhook.lua',
  deleteWebhook: 'delete-webhook.lua',
  claimWebhookEvents: 'claim-webhook-events.lua',
  openWebhookDelivery: 'open-webhook-delivery.lua',
  recordWebhookAttempt: 'record-webhook-attempt.lua',
  redeliverWebhook: 'redeliver-webhook.lua',
} as const;

export type ScriptName = keyof typeof SCRIPTS;
type ScriptArg = string | number;

export type ScriptRunner = (name: ScriptName, keys: string[], args: ScriptArg[]) => Promise<unknown>;

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

/**
 * Registers the scripts on a connection. ioredis then calls them by EVALSHA and reloads them
 * by itself after a NOSCRIPT (a restarted or failed-over Redis).
 */
export function registerScripts(redis: Redis): ScriptRunner {
  for (const name of Object.keys(SCRIPTS) as ScriptName[]) {
    const { lua, keys } = script(name);
    redis.defineCommand(name, { numberOfKeys: keys, lua });
  }
  return (name, keys, args) => {
    const expected = script(name).keys;
    if (keys.length !== expected) throw new Error(`${name} takes ${expected} keys`);
    const command = (redis as unknown as Record<ScriptName, (...a: ScriptArg[]) => Promise<unknown>>)[name];
    return command.call(redis, ...keys, ...args);
  };
}
