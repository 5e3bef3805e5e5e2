import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The secret of the one client the authorization server knows, `client-1`. */
export const CLIENT_SECRET = 'client-secret-9d8c7b6a';

/**
 * A local OAuth 2.0 authorization server: /authorize redirects the user back with a code, /token
 * exchanges that code (for the same redirect URI) and refresh tokens for access tokens.
 */
export function startAuthorizationServer(): Promise<{ server: Server; base: string }> {
  const codes = new Map<string, string>();
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/authorize') {
      const redirect = new URL(url.searchParams.get('redirect_uri') ?? '');
      const code = `code-${codes.size + 1}`;
      codes.set(code, redirect.toString());
      redirect.searchParams.set('code', code);
      redirect.searchParams.set('state', url.searchParams.get('state') ?? '');
      response.writeHead(302, { location: redirect.toString() }).end();
      return;
    }
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const answer = (status: number, body: unknown) => response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (form.get('client_id') !== 'client-1' || form.get('client_secret') !== CLIENT_SECRET) return answer(401, { error: 'invalid_client' });
      if (form.get('grant_type') === 'authorization_code') {
        const code = form.get('code') ?? '';
        if (codes.get(code) !== form.get('redirect_uri')) return answer(400, { error: 'invalid_grant' });
        codes.delete(code);
        return answer(200, { access_token: 'access-1', refresh_token: 'refresh-1', token_type: 'bearer' });
      }
      if (form.get('grant_type') === 'refresh_token' && form.get('refresh_token') === 'refresh-1')
        return answer(200, { access_token: 'access-2', token_type: 'bearer' });
      return answer(400, { error: 'invalid_grant' });
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })));
}

/** Where a user's browser would be sent next: the Location of a plain HTTP GET. */
export function locationOf(url: string): Promise<string> {
  return new Promise((resolve, reject) => {
    httpRequest(url, (response) => {
      response.resume();
      resolve(String(response.headers.location ?? ''));
    })
      .on('error', reject)
      .end();
  });
}
