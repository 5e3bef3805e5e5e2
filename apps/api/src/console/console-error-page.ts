import type { Context } from 'hono';
import { html } from 'hono/html';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { CONSOLE_PATH } from './console-path.ts';
import { pageLayout } from './page-layout.ts';

/**
 * A console page that cannot be shown, as a page: a refusal (or a service unavailable, which the API
 * says to its callers too) says why, anything else says only that it failed (the app's error handler
 * logs it and answers the API's way). Undefined for the latter.
 */
export function consoleErrorPage(c: Context<AppEnv>, error: Error) {
  if (!(error instanceof HTTPException) || (error.status >= 500 && !(error instanceof ApiError))) return undefined;
  const status = error.status as ContentfulStatusCode;
  const title = status === 404 ? 'Not found' : status === 403 ? 'Not allowed' : status === 503 ? 'Not available' : 'Cannot do this';
  const principal = c.get('principal');
  const session = c.get('consoleSession');
  const body = html`<p>${error.message}</p><p><a href="${CONSOLE_PATH}/runs">Back to the runs</a></p>`;
  const headers = error instanceof ApiError ? error.headers : {};
  return c.html(pageLayout({ title, ...(principal && session ? { signedIn: { principal, csrf: session.csrf } } : {}), body }), status, headers);
}
