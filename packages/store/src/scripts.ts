import { readFileSync } from 'node:fs';
import type { Redis } from 'ioredis';

/**
 * The Lua scripts of `lua/`, each registered on a connection as a command of the same name; a
 * script with a `prelude` has that file's functions set before it (Redis scripts have no include).
 */
interface ScriptFile {
  file: string;
  keys: number;
  /** One file, or several set in this order (a later one may use an earlier one's functions). */
  prelude?: string | readonly string[];
}

/** What a script that ends an execution's descendants is set after (terminate-descendants.lua). */
const ENDS_DESCENDANTS = ['list-row.lua', 'end-record.lua', 'terminate-descendants.lua'] as const;

const SCRIPTS = {
  acceptExecution: { file: 'accept-execution.lua', keys: 10, prelude: 'list-row.lua' },
  takeExecution: { file: 'take-execution.lua', keys: 1, prelude: 'list-row.lua' },
  checkpointExecution: { file: 'checkpoint-execution.lua', keys: 3, prelude: 'step-history.lua' },
  recordProgress: { file: 'record-progress.lua', keys: 3, prelude: 'step-history.lua' },
  endExecution: { file: 'end-execution.lua', keys: 13, prelude: ['step-history.lua', ...ENDS_DESCENDANTS] },
  requestTermination: { file: 'request-termination.lua', keys: 8, prelude: ENDS_DESCENDANTS },
  handBackExecution: { file: 'hand-back-execution.lua', keys: 1, prelude: ['list-row.lua', 'release-lease.lua'] },
  suspendExecution: { file: 'suspend-execution.lua', keys: 3, prelude: ['list-row.lua', 'release-lease.lua'] },
  deliverCallback: { file: 'deliver-callback.lua', keys: 3 },
  // An account's own Choreos, apart from the executions' scripts and their reply codes.
  putAccountChoreo: { file: 'accounts/put-account-choreo.lua', keys: 2 },
  putPreset: { file: 'put-preset.lua', keys: 1 },
  resealField: { file: 'reseal-field.lua', keys: 1 },
  storeToken: { file: 'store-token.lua', keys: 2 },
  lockToken: { file: 'lock-token.lua', keys: 1 },
  setTokenValidity: { file: 'set-token-validity.lua', keys: 1 },
  deleteToken: { file: 'delete-token.lua', keys: 2 },
  recordCallback: { file: 'record-callback.lua', keys: 1 },
} satisfies Record<string, ScriptFile>;

export type ScriptName = keyof typeof SCRIPTS;
type ScriptArg = string | number;

export type ScriptRunner = (name: ScriptName, keys: string[], args: ScriptArg[]) => Promise<unknown>;

const sources = new Map<ScriptName, string>();
function source(name: ScriptName): string {
  let lua = sources.get(name);
  if (lua === undefined) {
    const script: ScriptFile = SCRIPTS[name];
    const read = (file: string) => readFileSync(new URL(`./lua/${file}`, import.meta.url), 'utf8');
    const preludes = script.prelude === undefined ? [] : typeof script.prelude === 'string' ? [script.prelude] : script.prelude;
    lua = [...preludes, script.file].map(read).join('');
    sources.set(name, lua);
  }
  return lua;
}

/**
 * Registers the scripts on a connection. ioredis then calls them by EVALSHA and reloads them
 * by itself after a NOSCRIPT (a restarted or failed-over Redis).
 */
export function registerScripts(redis: Redis): ScriptRunner {
  for (const name of Object.keys(SCRIPTS) as ScriptName[]) {
    redis.defineCommand(name, { numberOfKeys: SCRIPTS[name].keys, lua: source(name) });
  }
  return (name, keys, args) => {
    if (keys.length !== SCRIPTS[name].keys) throw new Error(`${name} takes ${SCRIPTS[name].keys} keys`);
    const command = (redis as unknown as Record<ScriptName, (...a: ScriptArg[]) => Promise<unknown>>)[name];
    return command.call(redis, ...keys, ...args);
  };
}
