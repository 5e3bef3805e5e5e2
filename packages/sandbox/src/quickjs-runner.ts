import type * as QuickJs from 'quickjs-emscripten';
import type { QuickJSContext, QuickJSHandle, QuickJSWASMModule } from 'quickjs-emscripten';
import { libraryOnFirstUse } from '@ces/formats';

const quickJs = libraryOnFirstUse<typeof QuickJs>('quickjs-emscripten');
import { StepFailedError } from '@ces/language';

/**
 * Runs tenant JavaScript in QuickJS compiled to WebAssembly: the code sees only the JSON it is
 * given and the language itself — no network, no files, no clock (`Date` is absent), no
 * randomness (`Math.random` throws), no timers or promises, no typed arrays. One WebAssembly
 * module is loaded once and kept warm; every run gets a runtime and context of its own, with a
 * memory limit, a stack limit and an interrupt at its deadline, disposed when the run ends.
 *
 * A run is synchronous and QuickJS checks its interrupt only between instructions: one built-in
 * call near the memory limit (`new Array(1e8).join("x")`) goes on for many seconds. So this runs
 * in the sandbox processes (sandbox.ts), which kill an operation past its time, never on a worker's
 * own thread.
 */

export interface CodeLimits {
  /** CPU time of a run, in milliseconds. */
  readonly timeLimitMs: number;
  /** Memory of a run's runtime, in bytes: its input, its objects and its result all count. */
  readonly memoryLimitBytes: number;
  /** Stack of a run, in bytes; kept well inside the host's own stack, which QuickJS runs on. */
  readonly maxStackBytes: number;
  /** Longest result, in characters of JSON. */
  readonly maxResultChars: number;
}

export const DEFAULT_CODE_LIMITS: CodeLimits = {
  timeLimitMs: 1000,
  memoryLimitBytes: 64 * 1024 * 1024,
  maxStackBytes: 256 * 1024,
  maxResultChars: 4 * 1024 * 1024,
};

export interface CodeRequest {
  /** The body of `function (input) { … }`. */
  readonly code: string;
  /** The input as JSON text. */
  readonly inputJson: string;
  readonly limits: CodeLimits;
}

export interface QuickJsRunner {
  /** Loads the WebAssembly module now rather than on the first run. */
  load(): Promise<void>;
  /** What the code returns, as JSON text (`null` for undefined). Throws CodeFailedError. */
  run(request: CodeRequest): Promise<string>;
}

/** The code failed (threw, did not compile, met a limit): running it again would fail the same way. */
export class CodeFailedError extends StepFailedError {
  constructor(message: string) {
    super(message, { retryable: false });
    this.name = 'CodeFailedError';
  }
}

/** QuickJS's default intrinsics, less those the tenant's code must not reach. */
const WITHHELD_INTRINSICS = { Date: false, Promise: false, Proxy: false, TypedArrays: false } as const;

/** Run before the tenant's code: randomness is not given. */
const PRELUDE = `Object.defineProperty(Math, 'random', { value: function random() { throw new Error('Math.random is not available in a code step: pass random values in the input'); } });`;

/** Where the tenant's code starts in the file QuickJS compiles: error positions are shifted back. */
const WRAPPER_START = '(function (input) { "use strict"; ';
const FILE_NAME = 'code.js';

export function createQuickJsRunner(): QuickJsRunner {
  let module: Promise<QuickJSWASMModule> | undefined;

  const loadModule = (): Promise<QuickJSWASMModule> => {
    if (module === undefined) {
      const loading = quickJs().newQuickJSWASMModule();
      // A failed load is tried again on the next run rather than remembered.
      loading.catch(() => {
        if (module === loading) module = undefined;
      });
      module = loading;
    }
    return module;
  };

  return {
    async load() {
      await loadModule();
    },
    async run({ code, inputJson, limits }) {
      const loaded = await loadModule();
      try {
        return runInContext(loaded, limits, code, inputJson);
      } catch (error) {
        if (error instanceof CodeFailedError) throw error;
        // The host, not the tenant's code, failed (its stack overflowed inside QuickJS, or QuickJS
        // aborted): the module's state is unknown, so the next run gets a fresh one.
        if (module !== undefined && (await module) === loaded) module = undefined;
        throw new CodeFailedError(`the code sandbox failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

function runInContext(module: QuickJSWASMModule, options: CodeLimits, code: string, inputJson: string): string {
  const { DefaultIntrinsics, shouldInterruptAfterDeadline } = quickJs();
  const runtime = module.newRuntime();
  try {
    runtime.setMemoryLimit(options.memoryLimitBytes);
    runtime.setMaxStackSize(options.maxStackBytes);
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(Date.now() + options.timeLimitMs));
    const context = runtime.newContext({ intrinsics: { ...DefaultIntrinsics, ...WITHHELD_INTRINSICS } });
    try {
      return callCode(context, options, code, inputJson);
    } finally {
      context.dispose();
    }
  } finally {
    runtime.dispose();
  }
}

function callCode(context: QuickJSContext, options: CodeLimits, code: string, inputJson: string): string {
  const handles: QuickJSHandle[] = [];
  const keep = (handle: QuickJSHandle) => {
    handles.push(handle);
    return handle;
  };
  const unwrap = (result: ReturnType<QuickJSContext['evalCode']>, stage: string): QuickJSHandle => {
    if (result.error !== undefined) {
      const failure = describeFailure(context, result.error, options);
      result.error.dispose();
      throw new CodeFailedError(stage === '' ? failure : `${stage}: ${failure}`);
    }
    return keep(result.value);
  };
  try {
    // Taken before the tenant's code runs, so that it cannot replace them for us.
    const parse = unwrap(context.evalCode('JSON.parse', 'prelude.js'), 'the sandbox did not start');
    const stringify = unwrap(context.evalCode('JSON.stringify', 'prelude.js'), 'the sandbox did not start');
    unwrap(context.evalCode(PRELUDE, 'prelude.js'), 'the sandbox did not start');
    const input = unwrap(context.callFunction(parse, context.undefined, keep(context.newString(inputJson))), 'the input could not be given to the code');
    const fn = unwrap(context.evalCode(`${WRAPPER_START}${code}\n})`, FILE_NAME), 'the code does not compile');
    const returned = unwrap(context.callFunction(fn, context.undefined, input), 'the code failed');
    const json = unwrap(context.callFunction(stringify, context.undefined, returned), 'the result is not JSON');
    if (context.typeof(json) !== 'string') return 'null'; // undefined or a function
    const length = context.getNumber(keep(context.getProp(json, 'length')));
    if (length > options.maxResultChars) throw new CodeFailedError(`the result is longer than ${options.maxResultChars} characters of JSON`);
    return context.getString(json);
  } finally {
    for (const handle of handles.reverse()) if (handle.alive) handle.dispose();
  }
}

/** The tenant-facing reason: a limit met, or the error's name, message and line in the code. */
function describeFailure(context: QuickJSContext, error: QuickJSHandle, options: CodeLimits): string {
  const dumped: unknown = context.dump(error);
  if (dumped === null || typeof dumped !== 'object') return `threw ${typeof dumped === 'string' ? JSON.stringify(dumped) : String(dumped)}`;
  const { name, message, stack } = dumped as { name?: unknown; message?: unknown; stack?: unknown };
  if (name === 'InternalError' && message === 'interrupted') return `ran past its time limit of ${options.timeLimitMs} ms`;
  if (name === 'InternalError' && message === 'stack overflow') return `overflowed its stack of ${Math.round(options.maxStackBytes / 1024)} KiB`;
  if (name === 'InternalError' && message === 'out of memory') return `used more than ${Math.round(options.memoryLimitBytes / (1024 * 1024))} MiB of memory`;
  const at =
    positionIn(stack) ??
    positionIn(
      (dumped as { lineNumber?: unknown }).lineNumber === undefined ? undefined : `${FILE_NAME}:${String((dumped as { lineNumber?: unknown }).lineNumber)}:0`,
    );
  return `${typeof name === 'string' ? name : 'Error'}: ${typeof message === 'string' ? message : String(message)}${at === undefined ? '' : ` (${at})`}`;
}

/** "line L, column C" of the first frame in the tenant's code; the first line is shifted by the wrapper. */
function positionIn(stack: unknown): string | undefined {
  if (typeof stack !== 'string') return undefined;
  const match = new RegExp(`${FILE_NAME.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack);
  if (match === null) return undefined;
  const line = Number(match[1]);
  const column = Number(match[2]);
  if (line === 1 && column > WRAPPER_START.length) return `line 1, column ${column - WRAPPER_START.length}`;
  return column > 0 ? `line ${line}, column ${column}` : `line ${line}`;
}
