/**
 * The public URL paths of the service's two kinds of call back, outside the interface's base path
 * and without credentials (the unguessable token last in the path is the permission). The API
 * serves them and the worker hands their URLs out, so both take them from here.
 */

/**
 * Where a Callback Choreo's callback URL captures what it receives (Callback/RegisterCallback,
 * the OAuth helpers): `<public base>/callbacks/<token>`, any method, recorded for the account.
 */
export const CALLBACK_CAPTURE_PATH = '/callbacks';

/**
 * Where a run waiting in `control.waitForCallback` (a durable wait) is called back:
 * `POST <public base>/run-callbacks/<token>`, once.
 */
export const RUN_CALLBACK_PATH = '/run-callbacks';

export function callbackCaptureUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${CALLBACK_CAPTURE_PATH}/${token}`;
}

export function runCallbackUrl(publicBaseUrl: string, token: string): string {
  return `${publicBaseUrl}${RUN_CALLBACK_PATH}/${token}`;
}

/** A request path as logs may write it: a call back's token is a permission, so it is left out. */
export function withoutCallbackToken(path: string): string {
  for (const prefix of [CALLBACK_CAPTURE_PATH, RUN_CALLBACK_PATH]) {
    if (path.startsWith(`${prefix}/`)) return `${prefix}/…`;
  }
  return path;
}
