import { createSandbox } from '@ces/sandbox';
import { createStepLibrary } from './step-library.ts';
import type { StepLibraryOptions } from './step-library.ts';

export const testLibraryOptions: StepLibraryOptions = {
  http: { allowPrivateNetworks: true, timeoutMs: 5000, maxResponseBytes: 64 * 1024 },
  // One for every test of a file, as a worker has one: a library of its own per call would make threads per call.
  sandbox: createSandbox(),
};

/** Validates `args` with the kind's schema and runs it, as the engine would. */
export async function runStep(kind: string, args: unknown, options: StepLibraryOptions = testLibraryOptions, signal = new AbortController().signal) {
  const step = createStepLibrary(options).get(kind);
  if (step === undefined) throw new Error(`no step kind ${kind}`);
  return step.run(step.argsSchema.parse(args), { signal });
}
