import { parseArgs } from 'node:util';
import { ACCOUNT_NAME, AccountError, CREDENTIAL_NAME, CREDENTIAL_RIGHTS, isValidChoreoPattern, type CredentialRight } from '@ces/accounts';
import {
  addOperator,
  addUser,
  createAccount,
  createKey,
  listAccounts,
  listOperators,
  removeOperator,
  removeUser,
  revokeKey,
  rotateKey,
  showAccount,
} from './account-commands.ts';
import { AdminError, EXIT, UsageError } from './admin-error.ts';
import type { CommandContext } from './command-context.ts';
import { exportChoreos, importChoreos, listChoreos } from './choreo-commands.ts';
import { listExecutions, terminate } from './execution-commands.ts';
import { checkScheduleName, listSchedules, setSchedulePaused } from './schedule-commands.ts';
import { checkPresetName, deletePreset, listPresets, putPreset, resealSecrets, showPreset } from './preset-commands.ts';

export const USAGE = `Usage: npm run admin -- <command> [options]

Accounts
  accounts create <account>                      create an account
  accounts list                                  accounts with their users, apps and running executions
  accounts show <account>                        an account's users and applications (never a secret)
  users add <account> <user> [--choreo P]...     add a user, or reset its password (and its patterns,
        [--password-stdin]                       when given); the password is read from stdin, or
                                                 generated and shown once
  users remove <account> <user>                  remove the user (its password stops working at once)
  keys create <account> <app> [--choreo P]...    create an application; its key is shown once
        [--right R]...
  keys rotate <account> <app> [--choreo P]...    give it a new key (the old one stops working at once);
        [--right R]...                           patterns and rights not given are kept
  keys revoke <account> <app>                    remove the application and its key
  operators add <name> [--password-stdin]        add an operator (may use /ops and /metrics), or reset
                                                 its password
  operators remove <name>                        remove the operator (its password stops working at once)
  operators list

Choreos an account wrote itself (PUT /choreos/<id>)
  choreos list <account>                         their ids, versions, last writes and sizes
  choreos export <account>                       all of them as JSON on stdout
  choreos import <account>                       write those of an export read from stdin, each as its
                                                 next version; none when one is not a valid Choreo
Schedules (PUT /schedules/<name>)
  schedules list <account>                       their Choreos, times, states, next ticks and counts
  schedules pause <account> <schedule>           no tick starts a run until it is resumed
  schedules resume <account> <schedule>          ticks again from the next one (those while paused
                                                 are not caught up)
Presets and secrets (need SECRETS_KEY, the API's and workers' key)
  presets list <account>                         an account's presets
  presets show <account> <preset> [--values]     its inputs, values masked (--values: those not secret)
  presets put <account> <preset>                 create or replace it from the input set on stdin:
                                                 {"inputs": [{"name", "value", "secret": true|false}]}
  presets delete <account> <preset>
  secrets reseal                                 after a key rotation (new key in SECRETS_KEY, old
                                                 ones in SECRETS_KEY_PREVIOUS): seal every preset value,
                                                 stored token, webhook secret and execution's sealed
                                                 inputs and secret outputs again under the new key

Executions
  executions list [--account A] [--limit N]      RUNNING executions, oldest first (default limit 1000)
  executions terminate <id>                      as DELETE /choreo-executions/<id>: at once when queued,
                                                 after its current step when running

Options
  --choreo P   a Choreo pattern such as /Library/Utilities/** (repeatable; default /**)
  --right R    a right granted to an application (repeatable): presets (write presets, see values),
               choreos (write and delete the account's own Choreos), schedules (write, pause,
               resume, trigger and backfill schedules), webhooks (write and read webhooks, their
               secrets and deliveries); users hold every right
  --values     show the values of a preset's inputs not marked secret
  --json       results as JSON on stdout, for scripts
  -h, --help   this text

Environment: REDIS_URL (default: the Redis npm start uses, from the redis-url file it writes under
DATA_DIR, default .data), REDIS_PREFIX (default {ces}), RETENTION_SECONDS (default 3600),
SECRETS_KEY (default: the key npm start wrote under DATA_DIR, secrets.key) and
SECRETS_KEY_PREVIOUS (as the API's).
Exit status: 0 done, 1 failed, 2 bad usage or configuration.`;

interface Parsed {
  positionals: string[];
  choreo?: string[];
  passwordStdin: boolean;
  account?: string;
  limit?: string;
  right?: string[];
  values: boolean;
}

type Command = {
  args: string[];
  options?: ('choreo' | 'passwordStdin' | 'account' | 'limit' | 'right' | 'values')[];
  run(context: CommandContext, args: string[], parsed: Parsed): Promise<void>;
};

const COMMANDS: Record<string, Command> = {
  'accounts create': { args: ['account'], run: (c, [account = '']) => createAccount(c, account) },
  'accounts list': { args: [], run: (c) => listAccounts(c) },
  'accounts show': { args: ['account'], run: (c, [account = '']) => showAccount(c, account) },
  'users add': {
    args: ['account', 'user'],
    options: ['choreo', 'passwordStdin'],
    run: async (c, [account = '', user = ''], parsed) => addUser(c, account, user, patterns(parsed), await stdinSecret(c, parsed)),
  },
  'users remove': { args: ['account', 'user'], run: (c, [account = '', user = '']) => removeUser(c, account, user) },
  'keys create': {
    args: ['account', 'app'],
    options: ['choreo', 'right'],
    run: (c, [account = '', app = ''], parsed) => createKey(c, account, app, patterns(parsed) ?? ['/**'], rights(parsed) ?? []),
  },
  'keys rotate': {
    args: ['account', 'app'],
    options: ['choreo', 'right'],
    run: (c, [account = '', app = ''], parsed) => rotateKey(c, account, app, patterns(parsed), rights(parsed)),
  },
  'keys revoke': { args: ['account', 'app'], run: (c, [account = '', app = '']) => revokeKey(c, account, app) },
  'operators add': {
    args: ['name'],
    options: ['passwordStdin'],
    run: async (c, [name = ''], parsed) => addOperator(c, name, await stdinSecret(c, parsed)),
  },
  'operators remove': { args: ['name'], run: (c, [name = '']) => removeOperator(c, name) },
  'operators list': { args: [], run: (c) => listOperators(c) },
  'choreos list': { args: ['account'], run: (c, [account = '']) => listChoreos(c, account) },
  'choreos export': { args: ['account'], run: (c, [account = '']) => exportChoreos(c, account) },
  'choreos import': { args: ['account'], run: (c, [account = '']) => importChoreos(c, account) },
  'schedules list': { args: ['account'], run: (c, [account = '']) => listSchedules(c, account) },
  'schedules pause': { args: ['account', 'schedule'], run: (c, [account = '', schedule = '']) => setSchedulePaused(c, account, schedule, true) },
  'schedules resume': { args: ['account', 'schedule'], run: (c, [account = '', schedule = '']) => setSchedulePaused(c, account, schedule, false) },
  'presets list': { args: ['account'], run: (c, [account = '']) => listPresets(c, account) },
  'presets show': {
    args: ['account', 'preset'],
    options: ['values'],
    run: (c, [account = '', preset = ''], parsed) => showPreset(c, account, preset, parsed.values),
  },
  'presets put': { args: ['account', 'preset'], run: (c, [account = '', preset = '']) => putPreset(c, account, preset) },
  'presets delete': { args: ['account', 'preset'], run: (c, [account = '', preset = '']) => deletePreset(c, account, preset) },
  'secrets reseal': { args: [], run: (c) => resealSecrets(c) },
  'executions list': {
    args: [],
    options: ['account', 'limit'],
    run: (c, _args, parsed) => listExecutions(c, { ...(parsed.account !== undefined ? { account: parsed.account } : {}), limit: limit(parsed) }),
  },
  'executions terminate': {
    args: ['id'],
    run: (c, [id = '']) => {
      if (!/^[0-9a-f]{32}$/.test(id)) throw new UsageError(`"${id}" is not an execution id (32 lowercase hex characters)`);
      return terminate(c, id);
    },
  },
};

/** Names are checked here too, so that a bad one is bad usage (status 2), like any other. */
function checkName(arg: string, value: string) {
  if (arg === 'account' && !ACCOUNT_NAME.test(value)) {
    throw new UsageError(`"${value}" is not an account name: lowercase letters, digits and dashes, at most 63`);
  }
  if ((arg === 'user' || arg === 'app' || arg === 'name') && !CREDENTIAL_NAME.test(value)) {
    throw new UsageError(`"${value}" is not a name: letters, digits and . _ @ -, at most 128`);
  }
  if (arg === 'preset') checkPresetName(value);
  if (arg === 'schedule') checkScheduleName(value);
}

function rights(parsed: Parsed): CredentialRight[] | undefined {
  if (!parsed.right) return undefined;
  const known: readonly string[] = CREDENTIAL_RIGHTS;
  const unknown = parsed.right.find((right) => !known.includes(right));
  if (unknown !== undefined) throw new UsageError(`--right "${unknown}" is not a right: ${CREDENTIAL_RIGHTS.join(', ')}`);
  return parsed.right as CredentialRight[];
}

function patterns(parsed: Parsed): string[] | undefined {
  if (!parsed.choreo) return undefined;
  for (const pattern of parsed.choreo) {
    if (!isValidChoreoPattern(pattern)) throw new UsageError(`--choreo "${pattern}" is not a Choreo pattern such as /Library/Utilities/**`);
  }
  return parsed.choreo;
}

function limit(parsed: Parsed): number {
  if (parsed.limit === undefined) return 1000;
  const value = Number(parsed.limit);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`--limit must be a whole number from 1, not "${parsed.limit}"`);
  return value;
}

async function stdinSecret(context: CommandContext, parsed: Parsed): Promise<string | undefined> {
  if (!parsed.passwordStdin) return undefined;
  // One line; the newline a shell or a file adds is not part of the password.
  const password = (await context.io.readStdin()).replace(/\r?\n$/, '');
  if (password === '') throw new UsageError('--password-stdin read nothing from stdin');
  return password;
}

const OPTION_FLAGS = {
  choreo: '--choreo',
  passwordStdin: '--password-stdin',
  account: '--account',
  limit: '--limit',
  right: '--right',
  values: '--values',
} as const;

/** Parses the command line; throws UsageError when it is wrong. `undefined` asks for help. */
export function parseCommandLine(argv: string[]): { command: Command; args: string[]; parsed: Parsed; json: boolean } | undefined {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        choreo: { type: 'string', multiple: true },
        'password-stdin': { type: 'boolean' },
        account: { type: 'string' },
        limit: { type: 'string' },
        right: { type: 'string', multiple: true },
        values: { type: 'boolean' },
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (values.help || positionals.length === 0 || positionals[0] === 'help') return undefined;
  const name = positionals.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);
  const args = positionals.slice(2);
  if (args.length !== command.args.length) {
    const expected = command.args.map((arg) => `<${arg}>`).join(' ');
    // Not the arguments themselves: an extra one is often a password typed where it does not go.
    throw new UsageError(`${name} takes ${expected || 'no arguments'}, not ${args.length} argument${args.length === 1 ? '' : 's'}`);
  }
  for (const [i, arg] of command.args.entries()) checkName(arg, args[i] ?? '');
  const parsed: Parsed = {
    positionals,
    passwordStdin: values['password-stdin'] === true,
    values: values.values === true,
    ...(values.right !== undefined ? { right: values.right as string[] } : {}),
    ...(values.choreo !== undefined ? { choreo: values.choreo as string[] } : {}),
    ...(values.account !== undefined ? { account: values.account as string } : {}),
    ...(values.limit !== undefined ? { limit: values.limit as string } : {}),
  };
  for (const option of Object.keys(OPTION_FLAGS) as (keyof typeof OPTION_FLAGS)[]) {
    const given = option === 'passwordStdin' || option === 'values' ? parsed[option] : parsed[option] !== undefined;
    if (given && !command.options?.includes(option)) throw new UsageError(`${name} does not take ${OPTION_FLAGS[option]}`);
  }
  return { command, args, parsed, json: values.json === true };
}

/**
 * Runs one admin command and returns its exit status. Messages go to stderr, results to stdout.
 * `connect` opens the stores only once the command line is known to be right.
 */
export async function runAdmin(argv: string[], io: CommandContext['io'], connect: (json: boolean) => Promise<CommandContext>): Promise<number> {
  let line: ReturnType<typeof parseCommandLine>;
  try {
    line = parseCommandLine(argv);
  } catch (error) {
    io.err(`admin: ${(error as Error).message}\nRun \`npm run admin -- help\` for the commands.`);
    return EXIT.usage;
  }
  if (!line) {
    io.out(USAGE);
    return EXIT.ok;
  }
  try {
    const context = await connect(line.json);
    await line.command.run(context, line.args, line.parsed);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`admin: ${error.message}\nRun \`npm run admin -- help\` for the commands.`);
      return EXIT.usage;
    }
    if (error instanceof AdminError || error instanceof AccountError) {
      io.err(`admin: ${error.message}`);
      return EXIT.failed;
    }
    io.err(`admin: failed: ${(error as Error).message}`);
    return EXIT.failed;
  }
}
