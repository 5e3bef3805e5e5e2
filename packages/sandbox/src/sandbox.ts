import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  type CsvToJsonRequest,
  DATA_OPERATION_DESCRIPTIONS,
  type DataOperation,
  type DataRequest,
  type DataResult,
  type FindSubstringRequest,
  type JsonPropertyRequest,
  type JsonToXmlRequest,
  type QueryAnswer,
  type RegexMatchRequest,
  type XmlToJsonRequest,
  type XmlValidationRequest,
} from '@ces/formats';
import type { JsonFormatRequest, JsonQueryRequest, RegexReplaceRequest, SandboxOperation, TitleCaseRequest, XmlQueryRequest } from './sandbox-operations.ts';
import { DEFAULT_CODE_LIMITS } from './quickjs-runner.ts';
import type { CodeLimits, CodeRequest } from './quickjs-runner.ts';
import { createSandboxTurns } from './sandbox-turns.ts';
import { InvalidStepInputError, StepAbortedError } from '@ces/language';

export interface SandboxOptions {
  /** Longest an operation may run before its process is killed. */
  readonly timeLimitMs: number;
  /** Longest result, in characters: a short replacement at every position multiplies the text. */
  readonly maxResultLength: number;
  /** Heap of each process, in MiB, so that an operation that would use more fails in its process. */
  readonly maxHeapMb: number;
  /**
   * Processes kept ready between operations: as many as operations may run at once (the worker's
   * concurrency), since a process takes a hundred milliseconds and more to start; never more than
   * may run at once (`maxRunning`).
   */
  readonly idleProcesses: number;
  /**
   * Operations running at once in this process; the others wait their turn, and their time limit
   * starts with it. As many as the host has CPUs by default (sandbox-turns.ts).
   */
  readonly maxRunning: number;
  /** Limits of `code.javascript`'s JavaScript, which QuickJS enforces inside the process. */
  readonly code: CodeLimits;
}

const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = {
  timeLimitMs: 1000,
  maxResultLength: 4 * 1024 * 1024,
  maxHeapMb: 256,
  idleProcesses: 2,
  maxRunning: availableParallelism(),
  code: DEFAULT_CODE_LIMITS,
};

/**
 * How long past the code's own time limit its process is killed: QuickJS stops the code itself,
 * with a clearer message, unless a built-in call holds it.
 */
const CODE_KILL_GRACE_MS = 250;

/**
 * Runs the operations whose cost tenant input alone decides (regular expressions, JSONPath,
 * XPath, indenting JSON) in child processes, one at a time per process; a worker runs as many at
 * once as its concurrency allows runs. On the worker's own thread they cannot be
 * interrupted: `(a+)+$` or `//*[count(//*) > 0]` would stop its event loop (lock renewals,
 * heartbeats, every other run) for as long as they take. Here an operation past its time limit,
 * over its heap, or whose run is cancelled has its process killed, and fails without retry.
 *
 * Processes, not worker threads: an allocation past the heap limit inside one V8 builtin (a
 * `String.prototype.replace` that multiplies its text) is not an exception that V8 can hand to
 * the thread but a fatal error that aborts the whole process. In a child process it takes only
 * the child down.
 */
export interface Sandbox {
  regexReplace(request: RegexReplaceRequest, signal?: AbortSignal): Promise<string>;
  queryJson(request: JsonQueryRequest, signal?: AbortSignal): Promise<QueryAnswer>;
  queryXml(request: XmlQueryRequest, signal?: AbortSignal): Promise<QueryAnswer>;
  formatJson(request: JsonFormatRequest, signal?: AbortSignal): Promise<string>;
  xmlToJson(request: XmlToJsonRequest, signal?: AbortSignal): Promise<string>;
  jsonToXml(request: JsonToXmlRequest, signal?: AbortSignal): Promise<string>;
  /** The JSON text (`result`) and how many rows it has (`count`). */
  csvToJson(request: CsvToJsonRequest, signal?: AbortSignal): Promise<QueryAnswer>;
  titleCase(request: TitleCaseRequest, signal?: AbortSignal): Promise<string>;
  /** The first match (`result`) and whether there was one (`count` 1 or 0). */
  matchRegex(request: RegexMatchRequest, signal?: AbortSignal): Promise<QueryAnswer>;
  /** 1-based code-point positions of the occurrences. */
  findSubstring(request: FindSubstringRequest, signal?: AbortSignal): Promise<number[]>;
  findJsonProperty(request: JsonPropertyRequest, signal?: AbortSignal): Promise<QueryAnswer>;
  /** The empty string for a valid document, otherwise what is wrong with it. */
  validateXml(request: XmlValidationRequest, signal?: AbortSignal): Promise<string>;
  /** Calls `code` as the body of `function (input) { … }` in QuickJS; what it returns, as JSON data (null for nothing). */
  runCode(request: { code: string; input: unknown }, signal?: AbortSignal): Promise<unknown>;
  /** The original Utilities' conversions and XML queries (data-operations.ts), with the conversions' limits. */
  runData<Name extends DataOperation>(operation: Name, request: DataRequest<Name>, signal?: AbortSignal): Promise<DataResult<Name>>;
}

/** An idle process ends after this long, so that a worker that needs none holds none. */
const IDLE_PROCESS_MS = 30_000;
/**
 * A new process loads its modules before it says it is ready; only then does an operation's time
 * limit start, so that a busy machine's slow start never counts against the caller.
 */
const PROCESS_START_LIMIT_MS = 10_000;
const PROCESS_ENTRY = new URL('./sandbox-process.ts', import.meta.url);
/** The end of a process's stderr kept, to tell V8's out-of-memory report from other deaths. */
const STDERR_KEPT = 4096;

/**
 * Conversions (and title case) are linear in their input, and megabytes of it take seconds: they get more time and
 * room than queries, whose cost the input can make unbounded. The engine's limit on a step's
 * result (16 Mi characters) still applies.
 */
const CONVERSION_LIMITS = { timeLimitMs: 15_000, maxResultLength: 16 * 1024 * 1024 };

type ProcessAnswer = { ready: true } | { result: unknown } | { tooLong: number } | { failed: string };

interface SandboxProcess {
  readonly child: ChildProcess;
  /** The last STDERR_KEPT characters it wrote. */
  stderr: string;
}

/**
 * Processes still running, killed when this process exits: an idle one ends by itself when its
 * channel closes, but one busy with an operation does not read its channel until it is done.
 */
const running = new Set<ChildProcess>();
let killOnExit = false;

/** Processes are made on first use and end when idle (they never hold the process open): nothing to close. */
export function createSandbox(overrides: Partial<SandboxOptions> = {}): Sandbox {
  const options: SandboxOptions = { ...DEFAULT_SANDBOX_OPTIONS, ...overrides };
  const idle: { sandboxProcess: SandboxProcess; expiry: NodeJS.Timeout }[] = [];

  function forgetIdle(child: ChildProcess) {
    const index = idle.findIndex((entry) => entry.sandboxProcess.child === child);
    if (index === -1) return;
    const [entry] = idle.splice(index, 1);
    if (entry) clearTimeout(entry.expiry);
  }

  function takeProcess(): { sandboxProcess: SandboxProcess; started: boolean } {
    for (let ready = idle.pop(); ready; ready = idle.pop()) {
      clearTimeout(ready.expiry);
      const { child } = ready.sandboxProcess;
      if (!child.connected || child.exitCode !== null || child.signalCode !== null) continue;
      child.ref();
      child.channel?.ref();
      return { sandboxProcess: ready.sandboxProcess, started: true };
    }
    const sandboxProcess = startProcess(options.maxHeapMb);
    sandboxProcess.child.on('exit', () => forgetIdle(sandboxProcess.child));
    return { sandboxProcess, started: false };
  }

  function giveBack(sandboxProcess: SandboxProcess) {
    const { child } = sandboxProcess;
    // No more kept than may run at once: the others would only take memory.
    if (idle.length >= Math.min(options.idleProcesses, options.maxRunning)) {
      end(child);
      return;
    }
    child.unref();
    child.channel?.unref();
    const entry = {
      sandboxProcess,
      expiry: setTimeout(() => {
        idle.splice(idle.indexOf(entry), 1);
        end(child);
      }, IDLE_PROCESS_MS).unref(),
    };
    idle.push(entry);
  }

  const turns = createSandboxTurns(options.maxRunning);

  async function run<Result>(
    operation: SandboxOperation,
    request: object,
    signal: AbortSignal | undefined,
    limits: { timeLimitMs: number; maxResultLength: number } = options,
  ): Promise<Result> {
    const endTurn = await turns.take(signal);
    try {
      return await runInProcess<Result>(operation, request, signal, limits);
    } finally {
      endTurn();
    }
  }

  function runInProcess<Result>(
    operation: SandboxOperation,
    request: object,
    signal: AbortSignal | undefined,
    limits: { timeLimitMs: number; maxResultLength: number },
  ): Promise<Result> {
    if (signal?.aborted) return Promise.reject(new StepAbortedError(signal.reason));
    return new Promise<Result>((resolve, reject) => {
      const { sandboxProcess, started } = takeProcess();
      const { child } = sandboxProcess;
      let timer: NodeJS.Timeout | undefined;
      let settled = false;
      const settle = (outcome: () => void, keepProcess: boolean) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('close', onClose);
        child.off('error', onError);
        if (keepProcess) giveBack(sandboxProcess);
        else end(child);
        outcome();
      };
      const begin = () => {
        timer = setTimeout(
          () => settle(() => reject(new InvalidStepInputError(`${describe(operation)} ran longer than ${limits.timeLimitMs} ms`)), false),
          limits.timeLimitMs,
        );
        try {
          child.send({ operation, request, resultLimit: limits.maxResultLength }, (error) => {
            if (error) onError(error);
          });
        } catch (error) {
          onError(error as Error);
        }
      };
      const onMessage = (answer: ProcessAnswer) => {
        if ('ready' in answer) {
          clearTimeout(timer);
          begin();
          return;
        }
        settle(() => {
          if ('result' in answer) resolve(answer.result as Result);
          else if ('tooLong' in answer)
            reject(new InvalidStepInputError(`the result would be ${answer.tooLong} characters, more than ${limits.maxResultLength}`));
          else reject(new InvalidStepInputError(answer.failed));
        }, true);
      };
      // 'close', not 'exit': by then the process's stderr has been read to its end.
      const onClose = (code: number | null, exitSignal: NodeJS.Signals | null) =>
        settle(
          () =>
            reject(
              ranOutOfMemory(code, exitSignal, sandboxProcess.stderr)
                ? new InvalidStepInputError(`${describe(operation)} needed more memory than a step may use`)
                : new Error(`the process of ${describe(operation)} ended unexpectedly (${exitSignal ?? `exit code ${code}`})`),
            ),
          false,
        );
      // It could not be started (too many processes…), or no longer be sent to.
      const onError = (error: Error) => settle(() => reject(new Error('the sandbox process failed', { cause: error })), false);
      const onAbort = () => settle(() => reject(new StepAbortedError(signal?.reason)), false);
      child.on('message', onMessage);
      child.on('close', onClose);
      child.on('error', onError);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (started) begin();
      // Not the caller's fault, so another attempt may do better.
      else timer = setTimeout(() => settle(() => reject(new Error('the sandbox process did not start in time')), false), PROCESS_START_LIMIT_MS);
    });
  }

  return {
    regexReplace: (request, signal) => run('regex-replace', request, signal),
    queryJson: (request, signal) => run('json-query', request, signal),
    queryXml: (request, signal) => run('xml-query', request, signal),
    formatJson: (request, signal) => run('json-format', request, signal),
    xmlToJson: (request, signal) => run('xml-to-json', request, signal, CONVERSION_LIMITS),
    jsonToXml: (request, signal) => run('json-to-xml', request, signal, CONVERSION_LIMITS),
    csvToJson: (request, signal) => run('csv-to-json', request, signal, CONVERSION_LIMITS),
    titleCase: (request, signal) => run('title-case', request, signal, CONVERSION_LIMITS),
    matchRegex: (request, signal) => run('regex-match', request, signal),
    findSubstring: (request, signal) => run('find-substring', request, signal),
    findJsonProperty: (request, signal) => run('json-property', request, signal),
    validateXml: (request, signal) => run('xml-validate', request, signal, CONVERSION_LIMITS),
    runCode: async ({ code, input }, signal) => {
      const limits = options.code;
      const request: CodeRequest = { code, inputJson: JSON.stringify(input ?? null), limits };
      const json = await run<string>('run-code', request, signal, {
        timeLimitMs: limits.timeLimitMs + CODE_KILL_GRACE_MS,
        maxResultLength: limits.maxResultChars,
      });
      return JSON.parse(json);
    },
    runData: (operation, request, signal) => run(operation, request, signal, CONVERSION_LIMITS),
  };
}

function startProcess(maxHeapMb: number): SandboxProcess {
  const child = fork(PROCESS_ENTRY, [], {
    // Not this process's flags (--cpu-prof, --inspect… would apply to every sandbox process too),
    // only those that make Node read TypeScript, where it needs telling; then the heap's size.
    execArgv: [
      ...process.execArgv.filter((flag) => /^--(no-)?experimental-(strip|transform)-types$/.test(flag)),
      `--max-old-space-size=${maxHeapMb}`,
      `--max-semi-space-size=${Math.max(1, Math.floor(Math.min(32, maxHeapMb) / 3))}`,
    ],
    // Nothing of the worker's own environment (REDIS_URL carries a password) reaches a process
    // that evaluates tenants' patterns: only the compile cache, where compiled modules (TypeScript
    // without its types, and V8's code for them) are kept on disk, so that a process starts in half
    // the time and some 20 MiB smaller. Only a speed-up: where the folder cannot be written, Node
    // goes without.
    env: { NODE_COMPILE_CACHE: join(tmpdir(), 'node-compile-cache') },
    serialization: 'advanced',
    // The worker's output is JSON lines: a dying process's report must not land in it.
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  const sandboxProcess: SandboxProcess = { child, stderr: '' };
  const { stderr } = child;
  // stdio above asks for a stderr pipe: without one the spawn itself is broken.
  if (!stderr) throw new Error('the sandbox process was started without a stderr pipe');
  stderr.setEncoding('utf8');
  stderr.on('data', (chunk: string) => {
    sandboxProcess.stderr = (sandboxProcess.stderr + chunk).slice(-STDERR_KEPT);
  });
  (stderr as Socket).unref();
  // For the process's whole life, not one operation's: a failure to kill or to send to it after
  // its operation has let go of it would otherwise be an 'error' nobody listens to, which would end
  // the worker process, and every run on it.
  child.on('error', () => {});
  running.add(child);
  child.on('exit', () => running.delete(child));
  if (!killOnExit) {
    killOnExit = true;
    process.on('exit', () => {
      for (const other of running) end(other);
    });
  }
  return sandboxProcess;
}

/** SIGKILL: a process busy with an operation reads no message, and no signal it could handle. */
function end(child: ChildProcess) {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/**
 * V8 aborts a process whose heap is full (SIGABRT, or SIGTRAP where it traps instead; 134 is
 * SIGABRT as a shell reports it), after writing "JavaScript heap out of memory" to stderr.
 */
function ranOutOfMemory(code: number | null, signal: NodeJS.Signals | null, stderr: string): boolean {
  return signal === 'SIGABRT' || signal === 'SIGTRAP' || code === 134 || /out of memory/i.test(stderr);
}

function describe(operation: SandboxOperation): string {
  if (operation in DATA_OPERATION_DESCRIPTIONS) return DATA_OPERATION_DESCRIPTIONS[operation as DataOperation];
  const descriptions: Record<string, string> = {
    'regex-replace': 'the regular expression',
    'json-query': 'the JSONPath query',
    'xml-query': 'the XPath query',
    'json-format': 'formatting the JSON',
    'xml-to-json': 'converting the XML',
    'json-to-xml': 'converting the JSON',
    'csv-to-json': 'converting the CSV',
    'title-case': 'title-casing the text',
    'regex-match': 'the regular expression',
    'find-substring': 'searching the text',
    'json-property': 'searching the JSON',
    'xml-validate': 'validating the XML',
    'run-code': 'the code',
  };
  return descriptions[operation] ?? operation;
}
