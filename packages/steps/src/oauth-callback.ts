import { z } from 'zod';
import { type AccountCallbacks, type CallbackRequest, type StepContext, StepFailedError } from '@ces/language';
import { integerArg } from './arg-types.ts';
import { waitFor } from './control.ts';

/** A callback's id, as RegisterCallback and the Initialize steps make it. */
export const CALLBACK_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;
/** An authorization server's endpoint: reached through the HTTP steps' egress policy. */
export const oauthEndpoint = z
  .string()
  .max(2000)
  .refine((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), 'expected an http:// or https:// URL');
export const secretText = z.string().min(1).max(10_000);
// The original takes 1 and 0 as well as true and false.
export const oauthFlag = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? (({ '1': true, '0': false, true: true, false: false, '': false } as Record<string, boolean>)[value.trim().toLowerCase()] ?? value)
      : value,
  z.boolean({ error: 'expected true or false' }),
);
/** A Finalize step polls the callback at most this long, as the original documents (default 20 s). */
export const MAX_FINALIZE_SECONDS = 60;

/**
 * The arguments both Finalize steps (OAuth 1.0a and 2.0) take for the wait for the redirect: which
 * callback, how long, and whether a failure is returned rather than failing the step.
 */
export const finalizeWaitArgs = {
  callbackId: z.string().regex(CALLBACK_ID, 'a callback id is letters, digits, periods and hyphens'),
  timeoutSeconds: integerArg(1, MAX_FINALIZE_SECONDS).default(20),
  suppressErrors: oauthFlag.default(false),
};

/** How often a Finalize step looks at its callback for the redirect. */
const POLL_MS = 250;

/** The run's account's callbacks, which the OAuth helpers' redirects reach. */
export function callbacksOf(context: StepContext): AccountCallbacks {
  const callbacks = context.account?.callbacks;
  if (!callbacks) throw new StepFailedError('OAuth helpers are not available to this run: the worker has no SECRETS_KEY', { retryable: false });
  return callbacks;
}

/**
 * The latest request to the callback that is the authorization's redirect (`isRedirect`), waited
 * for up to `timeoutSeconds`; undefined when none came in time.
 */
export async function awaitRedirect(
  context: StepContext,
  callbackId: string,
  timeoutSeconds: number,
  isRedirect: (request: CallbackRequest) => unknown,
): Promise<CallbackRequest | undefined> {
  const callbacks = callbacksOf(context);
  const deadline = Date.now() + timeoutSeconds * 1000;
  for (;;) {
    const redirect = (await callbacks.requests(callbackId)).findLast(isRedirect);
    if (redirect || Date.now() >= deadline) return redirect;
    await waitFor(Math.min(POLL_MS, deadline - Date.now()), context.signal);
  }
}

/** A Finalize step's failure: an answer carrying `errorMessage` when errors are suppressed, else a failed step. */
export function finalizeFailure(suppressErrors: boolean): (message: string) => { response: string; errorMessage: string } {
  return (message) => {
    if (suppressErrors) return { response: '', errorMessage: message };
    throw new StepFailedError(message, { retryable: false });
  };
}
