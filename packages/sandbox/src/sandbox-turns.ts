import { StepAbortedError } from '@ces/language';

/**
 * Turns to run sandbox operations, at most `max` at once, the others waiting in order of arrival.
 * An operation's time limit starts with its turn: operations past the CPUs only share them, and
 * sixteen at once on two cores stretched each of them past a limit it keeps easily alone.
 */
export interface SandboxTurns {
  /** Resolves with the function that ends the turn; rejects if `signal` aborts first. */
  take(signal?: AbortSignal): Promise<() => void>;
}

export function createSandboxTurns(max: number): SandboxTurns {
  if (!Number.isInteger(max) || max < 1) throw new RangeError(`sandbox operations at once must be a whole number from 1, not ${max}`);
  let running = 0;
  const waiting: (() => void)[] = [];

  function granted(): () => void {
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    };
  }

  return {
    take(signal) {
      if (signal?.aborted) return Promise.reject(new StepAbortedError(signal.reason));
      if (running < max) {
        running += 1;
        return Promise.resolve(granted());
      }
      return new Promise((resolve, reject) => {
        // The turn passes straight from the operation that ends to the one that waited longest.
        const grant = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve(granted());
        };
        const onAbort = () => {
          const index = waiting.indexOf(grant);
          if (index !== -1) waiting.splice(index, 1);
          reject(new StepAbortedError(signal?.reason));
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiting.push(grant);
      });
    },
  };
}
