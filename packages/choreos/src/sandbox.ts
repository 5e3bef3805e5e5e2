import { Worker } from 'node:worker_threads';
import type { JsonQueryRequest, QueryAnswer, RegexReplaceRequest, SandboxOperation, XmlQueryRequest } from './sandbox-operations.ts';
import { InvalidStepInputError, StepAbortedError } from './step-errors.ts';

export interface SandboxOptions {
  /** Longest an operation may run before its thread is stopped. */
  readonly timeLimitMs: number;
  /** Longest result, in characters: a short replacement at every position multiplies the text. */
  readonly maxResultLength: number;
  /** Heap of each thread, in MiB, so that an operation that would use more fails in its thread. */
  readonly maxHeapMb: number;
}

export const DEFAULT_SANDBOX_OPTIONS: SandboxOptions = { timeLimitMs: 1000, maxResultLength: 4 * 1024 * 1024, maxHeapMb: 256 };

/**
 * Runs the operations whose cost tenant input alone decides (regular expressions, JSONPath,
 * XPath) on worker threads, one at a time per thread. On the worker's own thread they cannot be
 * interrupted: `(a+)+$` or `//*[count(//*) > 0]` would stop its event loop (lock renewals,
 * heartbeats, every other run) for as long as they take. Here an operation past its time limit,
 * over its heap, or whose run is cancelled has its thread stopped, and fails without retry.
 */
export interface Sandbox {
  regexReplace(request: RegexReplaceRequest, signal?: AbortSignal): Promise<string>;
  queryJson(request: JsonQueryRequest, signal?: AbortSignal): Promise<QueryAnswer>;
  queryXml(request: XmlQueryRequest, signal?: AbortSignal): Promise<QueryAnswer>;
}

/** Threads kept ready between operations; more are made while several run at once. */
const IDLE_THREADS = 2;
/** An idle thread ends after this long, so that a worker that needs none holds none. */
const IDLE_THREAD_MS = 30_000;
const THREAD_ENTRY = new URL('./sandbox-thread.ts', import.meta.url);

type ThreadAnswer = { result: unknown } | { tooLong: number } | { failed: string };

/** Threads are made on first use and end when idle (they never hold the process open): nothing to close. */
export function createSandbox(options: SandboxOptions = DEFAULT_SANDBOX_OPTIONS): Sandbox {
  const idle: { thread: Worker; expiry: NodeJS.Timeout }[] = [];

  function takeThread(): Worker {
    const ready = idle.pop();
    if (ready) {
      clearTimeout(ready.expiry);
      ready.thread.ref();
      return ready.thread;
    }
    return new Worker(THREAD_ENTRY, {
      workerData: { maxResultLength: options.maxResultLength },
      resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb, maxYoungGenerationSizeMb: Math.min(32, options.maxHeapMb) },
    });
  }

  function giveBack(thread: Worker) {
    if (idle.length >= IDLE_THREADS) {
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

  function run<Result>(operation: SandboxOperation, request: object, signal: AbortSignal | undefined): Promise<Result> {
    if (signal?.aborted) return Promise.reject(new StepAbortedError(signal.reason));
    const thread = takeThread();
    return new Promise<Result>((resolve, reject) => {
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
      const onMessage = (answer: ThreadAnswer) =>
        settle(() => {
          if ('result' in answer) resolve(answer.result as Result);
          else if ('tooLong' in answer) reject(new InvalidStepInputError(`the result would be ${answer.tooLong} characters, more than ${options.maxResultLength}`));
          else reject(new InvalidStepInputError(answer.failed));
        }, true);
      // The thread's heap ran out: the operation needed more memory than it may use.
      const onError = () => settle(() => reject(new InvalidStepInputError(`${describe(operation)} needed more memory than a step may use`)), false);
      const onExit = () => settle(() => reject(new Error(`the thread of ${describe(operation)} ended unexpectedly`)), false);
      const onAbort = () => settle(() => reject(new StepAbortedError(signal?.reason)), false);
      const timer = setTimeout(
        () => settle(() => reject(new InvalidStepInputError(`${describe(operation)} ran longer than ${options.timeLimitMs} ms`)), false),
        options.timeLimitMs,
      );
      thread.on('message', onMessage);
      thread.on('error', onError);
      thread.on('exit', onExit);
      signal?.addEventListener('abort', onAbort, { once: true });
      thread.postMessage({ operation, request });
    });
  }

  return {
    regexReplace: (request, signal) => run('regex-replace', request, signal),
    queryJson: (request, signal) => run('json-query', request, signal),
    queryXml: (request, signal) => run('xml-query', request, signal),
  };
}

function describe(operation: SandboxOperation): string {
  return { 'regex-replace': 'the regular expression', 'json-query': 'the JSONPath query', 'xml-query': 'the XPath query' }[operation];
}
