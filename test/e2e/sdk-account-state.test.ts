import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CLIENT_SECRET, locationOf, startAuthorizationServer } from '../support/oauth2-server.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { executeThroughSdk, mapTembooWire, outputsByGetters, setInput, type TembooWire } from '../support/temboo-session.ts';

// The original's OAuth 2.0 helpers and SendEmail through the original's own Node SDK, as a program
// written for the original calls them: real API and worker processes, a local authorization server
// and a local SMTP server (smtp-server) that asks for a password.
const SMTP_USER = 'mailer';
const SMTP_PASSWORD = 'smtp-password-91be3';

interface ReceivedMail {
  user: string;
  to: string[];
  raw: string;
}

async function startSmtp(): Promise<{ port: number; received: ReceivedMail[]; close(): Promise<void> }> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === SMTP_USER && auth.password === SMTP_PASSWORD) callback(null, { user: SMTP_USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ user: String(session.user), to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.server.address() as AddressInfo).port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe("the original's OAuth 2.0 helpers and SendEmail through the original's Node SDK", { timeout: 60_000 }, () => {
  let stack: Stack;
  let wire: TembooWire;

  beforeAll(async () => {
    // The SMTP and authorization servers listen on 127.0.0.1: the egress policy lets this stack reach them.
    stack = await startStack({ redisUrl: inject('redisUrl'), workerEnv: { HTTP_ALLOW_PRIVATE_NETWORKS: 'true' } });
    wire = await mapTembooWire(stack);
  });

  afterAll(async () => {
    wire?.unmap();
    await stack?.stop();
  });

  /** Runs one Choreo of Library/Utilities/<family> through its SDK class; its outputs, read with the SDK's getters. */
  async function run(family: string, choreo: string, inputs: Record<string, string>): Promise<Record<string, string>> {
    const sdkChoreo = wire.choreo(stack.credentials.acmeApp, family, choreo);
    const inputSet = sdkChoreo.newInputSet();
    for (const [name, value] of Object.entries(inputs)) setInput(inputSet, name, value);
    const outcome = await executeThroughSdk(sdkChoreo, inputSet);
    if (!outcome.ok) throw new Error(`The SDK called the error callback: ${outcome.error.type}: ${outcome.error.message}`);
    expect(outcome.results.getCompletionStatus(), outcome.results.getLastError()).toBe('SUCCESS');
    return outputsByGetters(outcome.results);
  }

  it('runs the OAuth 2.0 flow: InitializeOAuth, the redirect to its callback URL, FinalizeOAuth, RefreshToken', async () => {
    const auth = await startAuthorizationServer();
    try {
      const initialized = await run('Authentication/OAuth2', 'InitializeOAuth', {
        ClientID: 'client-1',
        RequestTokenEndpoint: `${auth.base}/authorize`,
        Scope: 'email profile',
      });
      const authorization = new URL(initialized.AuthorizationURL ?? '');
      expect(authorization.searchParams.get('client_id')).toBe('client-1');
      expect(authorization.searchParams.get('scope')).toBe('email profile');
      expect(authorization.searchParams.get('state')).toBeTruthy();
      // The redirect URI is one of this service's callback URLs, over HTTPS, at the address the SDK
      // called (the account's host: no PUBLIC_BASE_URL is set).
      const redirectUri = new URL(authorization.searchParams.get('redirect_uri') ?? '');
      expect(redirectUri.origin).toBe(`https://acme.choreos.test:${stack.port}`);

      // FinalizeOAuth waits for the user, who grants access meanwhile: the authorization server
      // sends the browser to the callback URL, which the service serves without credentials.
      const finalizing = run('Authentication/OAuth2', 'FinalizeOAuth', {
        AccessTokenEndpoint: `${auth.base}/token`,
        CallbackID: initialized.CallbackID ?? '',
        ClientID: 'client-1',
        ClientSecret: CLIENT_SECRET,
        Timeout: '30',
      });
      const back = new URL(await locationOf(authorization.toString()));
      expect(`${back.origin}${back.pathname}`).toBe(`${redirectUri.origin}${redirectUri.pathname}`);
      expect((await stack.http.request('GET', `${back.pathname}${back.search}`)).status).toBe(200);
      const finalized = await finalizing;
      expect(JSON.parse(finalized.Response ?? '')).toMatchObject({ access_token: 'access-1', refresh_token: 'refresh-1' });
      expect(finalized.ErrorMessage ?? '').toBe('');

      const refreshed = await run('Authentication/OAuth2', 'RefreshToken', {
        AccessTokenEndpoint: `${auth.base}/token`,
        ClientID: 'client-1',
        ClientSecret: CLIENT_SECRET,
        RefreshToken: 'refresh-1',
      });
      expect(JSON.parse(refreshed.Response ?? '')).toMatchObject({ access_token: 'access-2' });
    } finally {
      auth.server.close();
    }
  });

  it('sends an e-mail with AUTH, a copy and a Base64 attachment to a local SMTP server', async () => {
    const smtp = await startSmtp();
    try {
      const attachment = Buffer.from('id,total\n1,42\n');
      const sent = await run('Email', 'SendEmail', {
        Server: '127.0.0.1',
        Port: String(smtp.port),
        UseSSL: 'false',
        Username: SMTP_USER,
        Password: SMTP_PASSWORD,
        FromAddress: 'reports@example.com',
        ToAddress: 'team@example.com',
        CC: 'boss@example.com',
        Subject: 'Totals',
        MessageBody: 'The totals are attached.',
        Attachment: attachment.toString('base64'),
        AttachmentName: 'totals.csv',
      });
      expect(sent.Success).toBe('true');
      expect(smtp.received).toHaveLength(1);
      const [mail] = smtp.received;
      expect(mail?.user).toBe(SMTP_USER);
      expect(mail?.to.sort()).toEqual(['boss@example.com', 'team@example.com']);
      expect(mail?.raw).toMatch(/^Subject: Totals/m);
      expect(mail?.raw).toContain('filename=totals.csv');
      expect(mail?.raw).toContain(attachment.toString('base64'));
      // The password went to the SMTP server only: no log line of the service holds it.
      expect(stack.logs()).not.toContain(SMTP_PASSWORD);
    } finally {
      await smtp.close();
    }
  });
});
