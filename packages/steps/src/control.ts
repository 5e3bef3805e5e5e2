import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { ChoreoFailError, defineStepKind, InvalidStepInputError, StepAbortedError, type StepKind, suspendRun } from '@ces/language';
import { integerArg } from './arg-types.ts';

const MAX_WAIT_MS = 24 * 60 * 60 * 1000;
const MAX_CALLBACK_SECONDS = 7 * 24 * 60 * 60;

/** Resolves after `ms`, or rejects with StepAbortedError as soon as `signal` aborts. */
export function waitFor(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.reject(new StepAbortedError(signal.reason));
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(new StepAbortedError(signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export const controlSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'control.wait',
    description: `Waits \`milliseconds\` (at most ${MAX_WAIT_MS}). A long wait is durable: the run is stored and holds no worker while it waits, and is taken again, on any worker, when it is due. A short one waits in the worker; it is the only step kind that stops mid-step when the run is cancelled, reaches its time limit or its worker shuts down: an interrupted wait loses nothing. Result: \`{ waitedMs }\`.`,
    argsSchema: z.strictObject({ milliseconds: integerArg(0, MAX_WAIT_MS) }),
    // As long as it may wait, and a minute: the definitions' default (a minute) would fail every
    // longer wait it allows. The run's time limit stops it first all the same.
    defaultTimeoutMs: MAX_WAIT_MS + 60_000,
    example: { milliseconds: '{{inputs.StepMilliseconds}}' },
    run: async (args, context) => {
      const { suspension } = context;
      if (suspension === undefined) {
        await context.waitBegins?.(Date.now() + args.milliseconds);
        await waitFor(args.milliseconds, context.signal);
        return { waitedMs: args.milliseconds };
      }
      // Resumed after a suspension, the wait ends when it was first due: a run taken again never
      // waits the whole time over.
      const wakeAtMs = suspension.wakeAtMs ?? Date.now() + args.milliseconds;
      const remainingMs = wakeAtMs - Date.now();
      if (remainingMs >= suspension.minimumMs) return suspendRun(wakeAtMs);
      if (remainingMs > 0) {
        await context.waitBegins?.(wakeAtMs);
        await waitFor(remainingMs, context.signal);
      }
      return { waitedMs: args.milliseconds };
    },
  }),
  defineStepKind({
    kind: 'control.waitForCallback',
    description: `Makes a public, unguessable, single-use HTTPS URL (256 random bits) and suspends the run, holding no worker, until a request comes to that URL or \`timeoutSeconds\` pass (at most ${MAX_CALLBACK_SECONDS}, and the run's time limit). While the run waits, its result so far is \`{ url }\`, which outputs can show. Result: \`{ url, timedOut, body }\`: the request's body (its JSON parsed, else its text), or \`timedOut\` true and \`body\` null.`,
    argsSchema: z.strictObject({ timeoutSeconds: integerArg(1, MAX_CALLBACK_SECONDS) }),
    defaultTimeoutMs: MAX_CALLBACK_SECONDS * 1000 + 60_000,
    example: { timeoutSeconds: '{{inputs.TimeoutSeconds}}' },
    run: async (args, context) => {
      const { suspension } = context;
      if (suspension === undefined) throw new InvalidStepInputError('a call back can only be waited for by a run that can be suspended');
      const token = suspension.callbackToken ?? randomBytes(32).toString('base64url');
      const url = suspension.callbackUrl(token);
      if (url === undefined) throw new InvalidStepInputError('this service has no public URL for call backs');
      if (suspension.delivered !== undefined) return { url, timedOut: false, body: suspension.delivered.body };
      const wakeAtMs = suspension.wakeAtMs ?? Date.now() + args.timeoutSeconds * 1000;
      if (wakeAtMs <= Date.now()) return { url, timedOut: true, body: null };
      return suspendRun(wakeAtMs, { token, partial: { url } });
    },
  }),
  defineStepKind({
    kind: 'control.fail',
    pure: true,
    description:
      'Ends the run as failed with `message` when `when` is "true" (the default; case and surrounding spaces ignored); any other value lets the run go on. Never retried. Result: `{ failed: false }`.',
    argsSchema: z.strictObject({ message: z.string().min(1).max(10_000), when: z.string().default('true') }),
    example: { message: 'Stopped: {{inputs.Reason}}', when: '{{inputs.StopNow}}' },
    run: async (args) => {
      if (args.when.trim().toLowerCase() === 'true') throw new ChoreoFailError(args.message);
      return { failed: false };
    },
  }),
  defineStepKind({
    kind: 'noop',
    // Not pure, although it could be: NoOpSteps measures what a step costs a run that is
    // checkpointed after every step, which is what a Choreo with any real work in it pays.
    description: 'Does nothing and returns its (rendered) arguments; for tests and for measuring the cost of a step.',
    argsSchema: z.record(z.string(), z.unknown()),
    example: { note: 'step {{run.completedSteps}}' },
    run: async (args) => args,
  }),
];
