import type { Principal } from '@ces/accounts';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import type { AppEnv } from '../app-env.ts';
import { throttled, type Authentication } from '../auth/throttled-authentication.ts';
import { ApiError } from '../errors/api-error.ts';
import { CONSOLE_PATH, SIGN_IN_PATH } from './console-path.ts';
import { type ConsoleSessions, isSameOrigin, newSessionCredential, requireCsrf, requireSession, safeReturnPath } from './console-session.ts';
import { pageLayout } from './page-layout.ts';
import { clearSessionCookie, readSessionCookie, writeSessionCookie } from './session-cookie.ts';

interface SignInForm {
  account: string;
  name: string;
  next?: string;
  problem?: string;
}

function signInPage(form: SignInForm) {
  return pageLayout({
    title: 'Sign in',
    body: html`${form.problem ? html`<p class="problem" role="alert" id="problem">${form.problem}</p>` : ''}
<form class="sign-in" method="post" action="${SIGN_IN_PATH}">
<input type="hidden" name="next" value="${form.next ?? ''}">
<p><label for="account">Account</label>
<input id="account" name="account" autocomplete="organization" value="${form.account}" aria-describedby="account-hint">
<span class="hint" id="account-hint">Leave empty to sign in as an operator of the service.</span></p>
<p><label for="name">Name</label>
<input id="name" name="name" autocomplete="username" required value="${form.name}"></p>
<p><label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<span class="hint">An application signs in with its key.</span></p>
<p><button type="submit">Sign in</button></p>
</form>`,
  });
}

const field = (body: Record<string, unknown>, name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');

/** The same checks, throttles and answers as HTTP Basic: an account's user or application, or an operator when no account is given. */
async function authenticateForm(c: Context<AppEnv>, authentication: Authentication, account: string, name: string, secret: string) {
  const { authenticator } = authentication;
  if (account === '') {
    return throttled(c, authentication, {
      name,
      full: async () => {
        const principal = await authenticator.authenticateOperator(name, secret);
        return { principal, failures: principal ? 0 : 1 };
      },
    });
  }
  return throttled(c, authentication, {
    name: `${account}/${name}`,
    cheap: () => authenticator.authenticateKey(account, name, secret),
    full: async () => {
      const principal = await authenticator.authenticate(account, name, secret);
      return { principal, failures: principal ? 0 : 1 };
    },
  });
}

/** `GET|POST /console/sign-in` and `POST /console/sign-out`. */
export function signInRoutes(deps: { sessions: ConsoleSessions; authentication: Authentication }) {
  const { sessions } = deps;
  const routes = new Hono<AppEnv>();
  routes.get('/sign-in', (c) => c.html(signInPage({ account: '', name: '', ...nextOf(c.req.query('next')) })));

  routes.post('/sign-in', async (c) => {
    if (!isSameOrigin(c)) throw new ApiError('FORBIDDEN', 'This form did not come from the console.');
    const body = await c.req.parseBody();
    const account = field(body, 'account').trim().toLowerCase();
    const name = field(body, 'name').trim();
    const secret = field(body, 'password');
    const form = { account, name, ...nextOf(field(body, 'next')) };
    let principal: Principal | undefined;
    try {
      principal = name && secret ? await authenticateForm(c, deps.authentication, account, name, secret) : undefined;
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'TOO_MANY_REQUESTS') throw error;
      const retryAfter = error.headers['Retry-After'] ?? '60';
      c.header('Retry-After', retryAfter);
      return c.html(signInPage({ ...form, problem: `Too many failed sign-ins from here. Try again in ${retryAfter} seconds.` }), 429);
    }
    const credential = principal && (await newSessionCredential(sessions.credentials, principal));
    if (!principal || !credential) return c.html(signInPage({ ...form, problem: 'The account, name or password is not right.' }), 401);
    const kind = principal.kind;
    const { token } = await sessions.store.create({ kind, account: principal.account, name: principal.name, credential }, sessions.lifetimeMs);
    writeSessionCookie(c, token, sessions.lifetimeMs);
    return c.redirect(form.next ?? `${CONSOLE_PATH}/runs`, 303);
  });

  routes.post('/sign-out', requireSession(sessions), requireCsrf(), async (c) => {
    const token = readSessionCookie(c);
    if (token) await sessions.store.revoke(token);
    clearSessionCookie(c);
    return c.redirect(SIGN_IN_PATH, 303);
  });
  return routes;
}

function nextOf(value: string | undefined): { next?: string } {
  const next = safeReturnPath(value);
  return next ? { next } : {};
}
