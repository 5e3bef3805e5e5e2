import { parseArgs } from 'node:util';
import { ApiError, ConnectionError, createCesClient, type ExecutionStatus } from '@ces/client';
import { type ConnectionSettings, clientConfigOf, DEFAULT_URL } from './cli-config.ts';
import { EXIT, UsageError } from './cli-errors.ts';
import type { CliIo } from './cli-io.ts';
import { listChoreos, pushChoreo, showChoreo } from './choreo-commands.ts';
import type { CommandContext } from './command-context.ts';
import { deletePreset, listPresets, putPreset, showPreset } from './preset-commands.ts';
import { followRun, listRuns, redriveRun, run, showRun, terminateRun } from './run-commands.ts';
import { parseInputs, parseSince } from './values.ts';

function must<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('a command of the table is missing');
  return value;
}

const STATUSES: readonly ExecutionStatus[] = ['RUNNING', 'SUCCESS', 'ERROR', 'TERMINATED_MANUALLY', 'TERMINATED_LIMIT'];

const OPTIONS = {
  url: { type: 'string' },
  account: { type: 'string' },
  user: { type: 'string' },
  password: { type: 'string' },
  app: { type: 'string' },
  key: { type: 'string' },
  'ca-file': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  input: { type: 'string', short: 'i', multiple: true },
  async: { type: 'boolean' },
  preset: { type: 'string' },
  status: { type: 'string' },
  choreo: { type: 'string' },
  since: { type: 'string' },
  limit: { type: 'string' },
  steps: { type: 'boolean' },
  values: { type: 'boolean' },
  secret: { type: 'string', multiple: true },
} as const;

type Values = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string;
};

/** Options every command takes: where the service is, as whom, and how to answer. */
const COMMON = ['url', 'account', 'user', 'password', 'app', 'key', 'ca-file', 'json', 'help'] as const;

interface Command {
  args: string[];
  options: (keyof typeof OPTIONS)[];
  usage: string;
  run(context: CommandContext, args: string[], values: Values): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  run: {
    args: ['choreo'],
    options: ['input', 'async', 'preset'],
    usage: `ces run <choreo> [-i Name=Value]... [-i Name=@file]... [--preset P] [--async]
  Runs a Choreo and follows it: each step as it ends (with a live line for the current one on a
  terminal), then the outputs on stdout. --async prints the run's id at once instead.
  -i Name=Value   an input (repeatable); Name=@file takes the file's content
  --preset P      fill the inputs from the account's preset P first (the -i inputs win)
  --async         do not follow: print the id (follow it later with ces runs follow <id>)
  --json          the events as JSON lines, then {"type": "outputs", execution, output}
  Exit status: 0 SUCCESS, 1 ERROR, 2 TERMINATED_MANUALLY or TERMINATED_LIMIT.`,
    async run(context, [choreo = ''], values) {
      const inputs = await parseInputs(values.input ?? [], context.io.readFile);
      return run(context, choreo, inputs, { async: values.async === true, preset: values.preset });
    },
  },
  'runs list': {
    args: [],
    options: ['status', 'choreo', 'since', 'limit'],
    usage: `ces runs list [--status S] [--choreo C] [--since 1h] [--limit N]
  The account's runs kept (while running and for the retention time after), newest first.
  --status S   RUNNING, SUCCESS, ERROR, TERMINATED_MANUALLY or TERMINATED_LIMIT
  --choreo C   runs of one Choreo, such as /Library/Utilities/Encoding/Base64Encode
  --since T    started at most that long ago (90s, 30m, 1h, 2d) or since a date
  --limit N    at most N runs (1 to 500; default 50)`,
    run(context, _args, values) {
      const status = values.status?.toUpperCase();
      if (status !== undefined && !STATUSES.includes(status as ExecutionStatus)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
      const limit = values.limit === undefined ? undefined : Number(values.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 500)) throw new UsageError('--limit must be a whole number from 1 to 500');
      return listRuns(context, {
        ...(status ? { status: status as ExecutionStatus } : {}),
        ...(values.choreo ? { choreo: `/${values.choreo.replace(/^\/+/, '')}` } : {}),
        ...(values.since ? { since: parseSince(values.since, context.now()) } : {}),
        ...(limit ? { limit } : {}),
      });
    },
  },
  'runs show': {
    args: ['id'],
    options: ['steps'],
    usage: `ces runs show <id> [--steps]
  A run's record and outputs; --steps its step history instead: each attempt of each step, where and
  how it ended.`,
    run: (context, [id = ''], values) => showRun(context, id, { steps: values.steps === true }),
  },
  'runs follow': {
    args: ['id'],
    options: [],
    usage: `ces runs follow <id>
  Follows a run to its end as ces run does (a run that has ended is replayed), then its outputs.
  Exit status: 0 SUCCESS, 1 ERROR, 2 TERMINATED_MANUALLY or TERMINATED_LIMIT.`,
    run: (context, [id = '']) => followRun(context, id),
  },
  'runs redrive': {
    args: ['id'],
    options: ['input', 'async'],
    usage: `ces runs redrive <id> [-i Name=Value]... [--async]
  Starts a new execution of a run that ended ERROR or TERMINATED_LIMIT, from where it failed,
  reusing what it completed (-i inputs replace the run's), and follows it as ces run does.
  Exit status: as ces run.`,
    async run(context, [id = ''], values) {
      return redriveRun(context, id, await parseInputs(values.input ?? [], context.io.readFile), { async: values.async === true });
    },
  },
  'runs terminate': {
    args: ['id'],
    options: [],
    usage: `ces runs terminate <id>
  Stops a run: at once when no worker holds it, otherwise after its current step.`,
    run: (context, [id = '']) => terminateRun(context, id),
  },
  'choreos list': {
    args: [],
    options: [],
    usage: 'ces choreos list\n  The ids of the Choreos the credentials may see.',
    run: (context) => listChoreos(context),
  },
  'choreos show': {
    args: ['choreo'],
    options: [],
    usage: "ces choreos show <choreo>\n  Whether it is valid, its version (for the account's own), its inputs and outputs.",
    run: (context, [id = '']) => showChoreo(context, id),
  },
  'choreos push': {
    args: ['file', 'choreo'],
    options: [],
    usage: `ces choreos push <file> <choreo>
  Stores the Choreo document in <file> (JSON) as the next version of the account's own Choreo
  <choreo> (an id outside /Library/); each problem of an invalid one is shown and nothing is stored.`,
    run: (context, [file = '', id = '']) => pushChoreo(context, file, id),
  },
  'presets list': { args: [], options: [], usage: "ces presets list\n  The account's presets.", run: (context) => listPresets(context) },
  'presets show': {
    args: ['name'],
    options: ['values'],
    usage: 'ces presets show <name> [--values]\n  Its inputs, values masked; --values shows those not secret.',
    run: (context, [name = ''], values) => showPreset(context, name, values.values === true),
  },
  'presets put': {
    args: ['name'],
    options: ['input', 'secret'],
    usage: `ces presets put <name> -i Name=Value... [--secret Name]...
  Creates or replaces the preset with these inputs; those named by --secret are never shown again.`,
    async run(context, [name = ''], values) {
      return putPreset(context, name, await parseInputs(values.input ?? [], context.io.readFile), values.secret ?? []);
    },
  },
  'presets delete': { args: ['name'], options: [], usage: 'ces presets delete <name>', run: (context, [name = '']) => deletePreset(context, name) },
};

export const USAGE = `Usage: ces <command> [options]

Runs
  run <choreo> [-i Name=Value]... [--preset P] [--async]   run a Choreo and follow it to its end
  runs list [--status S] [--choreo C] [--since 1h]         the account's recent runs
  runs show <id> [--steps]                                 a run's record, outputs or step history
  runs follow <id>                                         follow a run to its end
  runs redrive <id> [-i Name=Value]... [--async]           run a failed run again from where it failed
  runs terminate <id>                                      stop a run
Choreos
  choreos list                                             the Choreos the credentials may see
  choreos show <choreo>                                    its inputs and outputs
  choreos push <file> <choreo>                             store the account's own Choreo from a file
Presets (stored input sets)
  presets list | show <name> [--values] | put <name> -i Name=Value... [--secret Name]... | delete <name>

Options of every command
  --url URL        the service (default ${DEFAULT_URL}, or CES_URL)
  --account A      the account (CES_ACCOUNT)
  --user U         a user of the account, with CES_PASSWORD (CES_USER)
  --app A          an application of the account, with CES_KEY (CES_APP)
  --ca-file F      a PEM file of the CA that signed the service's certificate (CES_CA_FILE);
                   for the certificate npm start makes, that certificate itself
  --json           results as JSON on stdout, for scripts
  -h, --help       this text; ces <command> --help for one command's

npm start prints the CES_* lines that configure ces for its demo account.
Exit status: 0 done (a run: SUCCESS), 1 failed (a run: ERROR; or the service refused),
2 a run TERMINATED_MANUALLY or TERMINATED_LIMIT, 3 bad usage, configuration, connection or credentials.`;

/** The environment ces reads, as the entry point passes it. */
export interface CliEnvironment {
  settings: ConnectionSettings;
  now?: () => number;
  /** Aborted on Ctrl-C. */
  signal?: AbortSignal;
}

function parse(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: OPTIONS });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The commands of a group (`runs`, `choreos`, `presets`), by their full names. */
const groupOf = (group: string) => Object.keys(COMMANDS).filter((name) => name.startsWith(`${group} `));

function commandOf(positionals: string[]): { name: string; command: Command } {
  const one = positionals[0] ?? '';
  const name = COMMANDS[one] ? one : positionals.slice(0, 2).join(' ');
  const command = COMMANDS[name];
  if (command) return { name, command };
  const group = groupOf(one);
  if (group.length > 0 && positionals.length === 1) throw new UsageError(`${one} needs one of: ${group.map((full) => full.slice(one.length + 1)).join(', ')}`);
  throw new UsageError(`unknown command "${name}"`);
}

/** Why a command failed, as a message for people, and its exit status. */
function failure(error: unknown, url: string): { message: string; status: number } {
  if (error instanceof UsageError) return { message: `${error.message}\nRun \`ces --help\` for the commands.`, status: EXIT.usage };
  if (error instanceof ConnectionError) return { message: error.message, status: EXIT.usage };
  if (error instanceof ApiError) {
    if (error.status === 401) {
      return { message: `the service at ${url} refused the credentials (401): check the account, the name and its password or key`, status: EXIT.usage };
    }
    const problems = error.problems.map((problem) => `\n  ${problem.pointer || '(the document)'}: ${problem.message}`).join('');
    return {
      message: `${error.message} (${error.status} ${error.code}${error.requestId ? `, request ${error.requestId}` : ''})${problems}`,
      status: EXIT.failed,
    };
  }
  return { message: `failed: ${(error as Error).message}`, status: EXIT.failed };
}

/** Runs one `ces` command line and answers its exit status. Messages go to stderr, results to stdout. */
export async function runCli(argv: string[], environment: CliEnvironment, io: CliIo): Promise<number> {
  let url = environment.settings.url ?? DEFAULT_URL;
  try {
    const { values, positionals } = parse(argv);
    if (positionals.length === 0 || positionals[0] === 'help') {
      io.out(USAGE);
      return positionals.length === 0 && !values.help ? EXIT.usage : EXIT.ok;
    }
    const group = groupOf(positionals[0] ?? '');
    if (values.help && positionals.length === 1 && group.length > 0) {
      io.out(group.map((name) => must(COMMANDS[name]).usage).join('\n\n'));
      return EXIT.ok;
    }
    const { name, command } = commandOf(positionals);
    if (values.help) {
      io.out(command.usage);
      return EXIT.ok;
    }
    const args = positionals.slice(name.split(' ').length);
    if (args.length !== command.args.length) {
      throw new UsageError(`${name} takes ${command.args.map((arg) => `<${arg}>`).join(' ') || 'no arguments'}, not ${args.length}`);
    }
    for (const option of Object.keys(values) as (keyof typeof OPTIONS)[]) {
      if (!(COMMON as readonly string[]).includes(option) && !command.options.includes(option)) throw new UsageError(`${name} does not take --${option}`);
    }
    const flags: ConnectionSettings = {
      url: values.url,
      account: values.account,
      user: values.user,
      password: values.password,
      app: values.app,
      key: values.key,
      caFile: values['ca-file'],
    };
    const config = await clientConfigOf(flags, environment.settings, io.readFile);
    url = config.url;
    const context: CommandContext = {
      client: createCesClient(config),
      io,
      json: values.json === true,
      now: environment.now ?? Date.now,
      signal: environment.signal,
    };
    return await command.run(context, args, values as Values);
  } catch (error) {
    const { message, status } = failure(error, url);
    io.err(`ces: ${message}\n`);
    return status;
  }
}
