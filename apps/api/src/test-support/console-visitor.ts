import { SESSION_COOKIE } from '../console/session-cookie.ts';
import type { InProcessApp, TestCredential } from './in-process-app.ts';

export const CONSOLE_HOST = 'console.test';
export const CONSOLE_ORIGIN = `https://${CONSOLE_HOST}`;

/** A browser's visit: the cookie it holds, and same-origin headers as Chromium sends them. */
export function consoleVisitor(t: InProcessApp) {
  let cookie = '';
  async function request(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { host: CONSOLE_HOST, accept: 'text/html', ...(cookie ? { cookie } : {}) };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = CONSOLE_ORIGIN;
      headers['sec-fetch-site'] = 'same-origin';
      body = new URLSearchParams(init.form).toString();
    }
    Object.assign(headers, init.headers);
    for (const [name, value] of Object.entries(headers)) if (value === '') delete headers[name];
    const response = await t.app.request(`${CONSOLE_ORIGIN}${path}`, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      ...(body ? { body } : {}),
    });
    const set = response.headers.get('set-cookie');
    if (set?.startsWith(`${SESSION_COOKIE}=`)) cookie = set.split(';')[0] ?? '';
    return response;
  }
  return {
    request,
    get cookie() {
      return cookie;
    },
    async signIn(credential: TestCredential, next?: string) {
      return request('/console/sign-in', {
        form: { account: credential.account, name: credential.name, password: credential.secret, ...(next ? { next } : {}) },
      });
    },
    async csrf() {
      const page = await (await request('/console/runs')).text();
      return /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    },
  };
}
