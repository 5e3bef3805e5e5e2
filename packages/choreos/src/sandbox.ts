import { Worker } from 'node:worker_threads';
import type { CsvToJsonRequest, JsonToXmlRequest, XmlToJsonRequest } from './conversions.ts';
import type { JsonFormatRequest, JsonQueryRequest, QueryAnswer, RegexReplaceRequest, SandboxOperation, TitleCaseRequest, XmlQueryRequest } from './sandbox-operations.ts';
import { InvalidStepInputError, StepAbortedError } from './step-errors.ts';

export interface SandboxOptions {
  /** Longest an operation may run before its thread is stopped. */
  readonly timeLimitMs: number;
  /** Longest result, in characters: a short replacement at every position multiplies the text. */
  readonly maxResultLength: number;
  /** Heap of each thread, in MiB, so that an operation that would use more fails in its thread. */
  readonly maxHeapMb: number;
  /**
   * Threads kept ready between operations: as many as operations may run at once (the worker's
   * concurrency), since a thread takes a hundred milliseconds and more to start.
   */
  readonly idleThreads: number;
}

const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = { timeLimitMs: 1000, maxResultLength: 4 * 1024 * 1024, maxHeapMb: 256, idleThreads: 2 };

/**
 * Runs the operations whose cost tenant input alone decides (regular expressions, JSONPath,
 * XPath, indenting JSON) on worker threads, one at a time per thread; a worker runs as many at once
 * as its concurrency allows runs. On the worker's own thread they cannot be
 * interrupted: `(a+)+$` or `//*[count(//*) > 0]` would stop its event loop (lock renewals,
 * heartbeats, every other run) for as long as they take. Here an operation past its time limit,
 * over its heap, or whose run is cancelled has its thread stopped, and fails without retry.
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
}

/** An idle thread ends after this long, so that a worker that needs none holds none. */
const IDLE_THREAD_MS = 30_000;
/**
 * A new thread loads its modules before it says it is ready; only then does an operation's time
 * limit start, so that a busy machine's slow start never counts against the caller.
 */
const THREAD_START_LIMIT_MS = 10_000;
const THREAD_ENTRY = new URL('./sandbox-thread.ts', import.meta.url);

/**
 * Conversions (and title case) are linear in their input, and megabytes of it take seconds: they get more time and
 * room than queries, whose cost the input can make unbounded. The engine's limit on a step's
 * result (16 Mi characters) still applies.
 */
const CONVERSION_LIMITS = { timeLimitMs: 15_000, maxResultLength: 16 * 1024 * 1024 };

type ThreadAnswer = { ready: true } | { result: unknown } | { tooLong: number } | { failed: string };

/** Threads are made on first use and end when idle (they never hold the process open): nothing to close. */
export function createSandbox(overrides: Partial<SandboxOptions> = {}): Sandbox {
  const options: SandboxOptions = { ...DEFAULT_SANDBOX_OPTIONS, ...overrides };
  const idle: { thread: Worker; expiry: NodeJS.Timeout }[] = [];

  function forgetIdle(thread: Worker) {
    const index = idle.findIndex((entry) => entry.thread === thread);
    if (index === -1) return;
    clearTimeout(idle[index]!.expiry);
    idle.splice(index, 1);
  }

  function takeThread(): { thread: Worker; started: boolean } {
    const ready = idle.pop();
    if (ready) {
      clearTimeout(ready.expiry);
      ready.thread.ref();
      return { thread: ready.thread, started: true };
    }
    const thread = new Worker(THREAD_ENTRY, {
      workerData: { maxResultLength: options.maxResultLength },
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: Math.min(32, options.maxHeapMb) },
    });
    // For the thread's whole life, not one operation's: a thread stopped for its time limit may
    // still run out of memory before it ends, after its operation has let go of it, and an 'error'
    // nobody listens to would end the worker process, and every run on it.
    thread.on('error', () => {});
    thread.on('exit', () => forgetIdle(thread));
    return { thread, started: false };
  }

  function giveBack(thread: Worker) {
    if (idle.length >= options.idleThreads) {
      void thread.terminate();
      return;
    }
    thread.unref();
    const entry = {
      thread,
      expiry: setTimeout(() => {
        idle.splice(idle.indexOf(entry), 1);
        void thread.terminate();
      }, IDLE_THREAD_MS).unref(),
    };
    idle.push(entry);
  }

  function run<Result>(
    operation: SandboxOperation,
    request: object,
    signal: AbortSignal | undefined,
    limits: { timeLimitMs: number; maxResultLength: number } = options,
  ): Promise<Result> {
    if (signal?.aborted) return Promise.reject(new StepAbortedError(signal.reason));
    const { thread, started } = takeThread();
    return new Promise<Result>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const settle = (outcome: () => void, keepThread: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        thread.off('message', onMessage);
        thread.off('error', onError);
        thread.off('exit', onExit);
        if (keepThread) giveBack(thread);
        else void thread.terminate();
        outcome();
      };
      const begin = () => {
        timer = setTimeout(
          () => settle(() => reject(new InvalidStepInputError(`${describe(operation)} ran longer than ${limits.timeLimitMs} ms`)), false),
          limits.timeLimitMs,
        );
        thread.postMessage({ operation, request, resultLimit: limits.maxResultLength });
      };
      const onMessage = (answer: ThreadAnswer) => {
        if ('ready' in answer) {
          clearTimeout(timer);
          begin();
          return;
        }
        settle(() => {
          if ('result' in answer) resolve(answer.result as Result);
          else if ('tooLong' in answer) reject(new InvalidStepInputError(`the result would be ${answer.tooLong} characters, more than ${limits.maxResultLength}`));
          else reject(new InvalidStepInputError(answer.failed));
        }, true);
      };
      const onError = (error: Error & { code?: string }) =>
        settle(
          () =>
            reject(
              error.code === 'ERR_WORKER_OUT_OF_MEMORY'
                ? new InvalidStepInputError(`${describe(operation)} needed more memory than a step may use`)
                : new Error('the sandbox thread failed', { cause: error }),
            ),
          false,
        );
      const onExit = () => settle(() => reject(new Error(`the thread of ${describe(operation)} ended unexpectedly`)), false);
      const onAbort = () => settle(() => reject(new StepAbortedError(signal?.reason)), false);
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      if (started) begin();
      // Not the caller's fault, so another attempt may do better.
      else timer = setTimeout(() => settle(() => reject(new Error('the sandbox thread did not start in time')), false), THREAD_START_LIMIT_MS);
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
  };
}

function describe(operation: SandboxOperation): string {
  return {
    'regex-replace': 'the regular expression',
    'json-query': 'the JSONPath query',
    'xml-query': 'the XPath query',
    'json-format': 'formatting the JSON',
    'xml-to-json': 'converting the XML',
    'json-to-xml': 'converting the JSON',
    'csv-to-json': 'converting the CSV',
    'title-case': 'title-casing the text',
  }[operation];
}
