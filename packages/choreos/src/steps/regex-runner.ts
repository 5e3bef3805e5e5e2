import { Worker } from 'node:worker_threads';
import { InvalidStepInputError, StepAbortedError } from '../step-errors.ts';

export interface RegexReplaceRequest {
  text: string;
  pattern: string;
  flags: string;
  replacement: string;
}

export interface RegexRunnerOptions {
  /** Longest a replacement may run before its thread is stopped: a hostile pattern backtracks for ever. */
  readonly timeLimitMs: number;
  /** Longest result, in characters; a short replacement repeated at every position multiplies the text. */
  readonly maxResultLength: number;
  /** Heap of each thread, in MiB, so that building a huge result fails in the thread, not the worker. */
  readonly maxHeapMb: number;
}

export interface RegexRunner {
  replace(request: RegexReplaceRequest, signal: AbortSignal): Promise<string>;
}

/** Threads kept ready between replacements; more are made while several run at once. */
const IDLE_THREADS = 2;
/** An idle thread ends after this long, so that a worker without regular expressions holds none. */
const IDLE_THREAD_MS = 30_000;

// Plain JavaScript, evaluated by the thread: it replaces, and answers with the text or the error.
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
parentPort.on('message', ({ text, pattern, flags, replacement }) => {
  let answer;
  try {
    const result = text.replace(new RegExp(pattern, flags), replacement);
    answer = result.length > workerData.maxResultLength ? { tooLong: result.length } : { text: result };
  } catch (error) {
    answer = { error: String(error && error.message) };
  }
  parentPort.postMessage(answer);
});
`;

type ThreadAnswer = { text: string } | { tooLong: number } | { error: string };

/**
 * Runs JavaScript regular expressions on worker threads, one replacement per thread at a time.
 * V8's regular expressions backtrack and cannot be interrupted: run on the worker's own thread, a
 * pattern like `(a+)+$` stops its event loop (lock renewals, heartbeats, every other run) for hours.
 * On a thread of its own, a replacement past `timeLimitMs`, or whose run is cancelled, has its
 * thread stopped. Threads are made on first use and end when idle, so nothing needs closing.
 */
export function createRegexRunner(options: RegexRunnerOptions): RegexRunner {
  const idle: { thread: Worker; expiry: NodeJS.Timeout }[] = [];

  function takeThread(): Worker {
    const ready = idle.pop();
    if (ready) {
      clearTimeout(ready.expiry);
      ready.thread.ref();
      return ready.thread;
    }
    return new Worker(THREAD_SOURCE, {
      eval: true,
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

  return {
    replace(request, signal) {
      if (signal.aborted) return Promise.reject(new StepAbortedError(signal.reason));
      const thread = takeThread();
      return new Promise<string>((resolve, reject) => {
        const settle = (outcome: () => void, keepThread: boolean) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          thread.off('message', onMessage);
          thread.off('error', onError);
          thread.off('exit', onExit);
          if (keepThread) giveBack(thread);
          else void thread.terminate();
          outcome();
        };
        const onMessage = (answer: ThreadAnswer) =>
          settle(() => {
            if ('text' in answer) resolve(answer.text);
            else if ('tooLong' in answer) reject(new InvalidStepInputError(`the result would be ${answer.tooLong} characters, more than ${options.maxResultLength}`));
            else reject(new InvalidStepInputError(`the regular expression failed: ${answer.error}`));
          }, true);
        // The thread ran out of its heap: the result was too large to build.
        const onError = () => settle(() => reject(new InvalidStepInputError('the replacement needed more memory than a step may use')), false);
        const onExit = () => settle(() => reject(new Error('the regular expression thread ended unexpectedly')), false);
        const onAbort = () => settle(() => reject(new StepAbortedError(signal.reason)), false);
        const timer = setTimeout(
          () => settle(() => reject(new InvalidStepInputError(`the regular expression ran longer than ${options.timeLimitMs} ms`)), false),
          options.timeLimitMs,
        );
        thread.on('message', onMessage);
        thread.on('error', onError);
        thread.on('exit', onExit);
        signal.addEventListener('abort', onAbort, { once: true });
        thread.postMessage(request);
      });
    },
  };
}
