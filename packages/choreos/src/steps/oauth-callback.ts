import type { AccountCallbacks, CallbackRequest } from '../account-state.ts';
import { StepFailedError } from '../step-errors.ts';
import type { StepContext } from '../step-kind.ts';
import { waitFor } from './control.ts';

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
