import { afterAll, beforeAll, inject } from 'vitest';
import { startStack, type Stack, type StackOptions } from './stack.ts';
import { StepCounter } from './step-counter.ts';
import { writeWorkerTestCatalogue } from './worker-test-catalogue.ts';

export interface WorkerTestStack {
  /** Counts the worker test Choreos' calls; started before the stack, closed after it. */
  readonly counter: StepCounter;
  /** The running stack; set once the suite's `beforeAll` has run. */
  readonly stack: Stack;
}

/**
 * Starts, for the enclosing suite, a stack running the worker test Choreos against the shared test
 * Redis, with a step counter for them to call, and stops both after the suite.
 */
export function useWorkerTestStack(options: Omit<StackOptions, 'redisUrl' | 'choreosDir'>): WorkerTestStack {
  const catalogue = writeWorkerTestCatalogue();
  const counter = new StepCounter();
  let stack: Stack | undefined;

  beforeAll(async () => {
    await counter.start();
    stack = await startStack({ ...options, redisUrl: inject('redisUrl'), choreosDir: catalogue.dir });
  });

  afterAll(async () => {
    await stack?.stop();
    await counter.close();
    catalogue.remove();
  });

  return {
    counter,
    get stack() {
      if (!stack) throw new Error('the worker test stack is not started yet: use it inside a test or a later hook');
      return stack;
    },
  };
}
