import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bindInputs } from '@ces/language';
import { createStepLibrary, type StepLibraryOptions } from '@ces/steps';
import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import { runChoreo, type RunOutcome } from '@ces/engine';
import { ensureSelfSignedCertificate, readCertificate } from '@ces/local-runtime';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Email/SendEmail through the engine against real local SMTP servers (smtp-server): plain with
// STARTTLS refused, implicit TLS with a certificate, AUTH, CC and BCC, attachments given and
// fetched, and the egress policy that keeps SMTP off private addresses unless allowed.
interface Received {
  /** Whether the connection was encrypted when the message came (TLS from the start, or STARTTLS). */
  secure: boolean;
  from: string;
  to: string[];
  raw: string;
  user: string;
}

const USER = 'mailer';
const PASSWORD = 'smtp-password-5ac1d';

async function startSmtp(options: Partial<SMTPServerOptions>): Promise<{ port: number; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          secure: session.secure,
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
          user: String(session.user),
        });
        callback();
      });
    },
    ...options,
  });
  // A client that gives up on an untrusted certificate is one of the cases tested.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describe('Email/SendEmail against a local SMTP server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'send-email-'));
  let catalogue: Catalogue;
  let plain: Awaited<ReturnType<typeof startSmtp>>;
  let secure: Awaited<ReturnType<typeof startSmtp>>;
  let startTls: Awaited<ReturnType<typeof startSmtp>>;
  let files: Server;
  let filesBase = '';
  let cert = '';

  async function send(inputs: Record<string, string>, options: Partial<StepLibraryOptions> = {}): Promise<RunOutcome> {
    const steps = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 10_000, maxResponseBytes: 1024 * 1024 }, ...options });
    const entry = catalogue.get('/Library/Utilities/Email/SendEmail');
    if (!entry?.valid) throw new Error('SendEmail is not valid');
    const bound = bindInputs(entry.definition, inputs);
    if (!bound.ok) throw new Error(`missing ${bound.missing.join(', ')}`);
    return runChoreo({
      definition: entry.definition,
      inputs: bound.inputs,
      steps,
      hooks: { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined },
    });
  }

  const message = (port: number, extra: Record<string, string> = {}) => ({
    Server: '127.0.0.1',
    Port: String(port),
    UseSSL: '0',
    Username: USER,
    Password: PASSWORD,
    FromAddress: 'Sender <sender@example.com>',
    ToAddress: 'to@example.com',
    Subject: 'Monthly report',
    MessageBody: 'Hello from a Choreo.',
    ...extra,
  });

  beforeAll(async () => {
    catalogue = await loadCatalogue(fileURLToPath(new URL('../../choreos', import.meta.url)), createStepLibrary());
    const tls = readCertificate(await ensureSelfSignedCertificate(dataDir));
    cert = tls.cert;
    plain = await startSmtp({ disabledCommands: ['STARTTLS'] });
    secure = await startSmtp({ secure: true, key: tls.key, cert: tls.cert });
    startTls = await startSmtp({ key: tls.key, cert: tls.cert });
    files = createHttpServer((_request, response) => response.end(Buffer.from([0, 1, 2, 250, 251, 252])));
    await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
    filesBase = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await plain?.close();
    await secure?.close();
    await startTls?.close();
    files?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends with AUTH to every recipient, BCC in the envelope only, with a Base64 attachment', async () => {
    const outcome = await send(
      message(plain.port, {
        CC: 'cc1@example.com, cc2@example.com',
        BCC: 'hidden@example.com',
        Attachment: Buffer.from('a,b\n1,2\n').toString('base64'),
        AttachmentName: 'report.csv',
      }),
    );
    expect(outcome).toMatchObject({ kind: 'completed', checkpoint: { outputs: { Success: 'true' } } });
    const mail = plain.received.at(-1);
    expect(mail?.user).toBe(USER);
    expect(mail?.from).toBe('sender@example.com');
    expect(mail?.to.sort()).toEqual(['cc1@example.com', 'cc2@example.com', 'hidden@example.com', 'to@example.com']);
    expect(mail?.raw).toMatch(/^Subject: Monthly report/m);
    expect(mail?.raw).toMatch(/^Cc: cc1@example\.com, cc2@example\.com/m);
    expect(mail?.raw).not.toMatch(/hidden@example\.com/);
    expect(mail?.raw).toContain('filename=report.csv');
    expect(mail?.raw).toContain(Buffer.from('a,b\n1,2\n').toString('base64'));
    expect(mail?.raw).toContain('Hello from a Choreo.');
  });

  it('attaches a file fetched from AttachmentURL, bytes intact', async () => {
    const outcome = await send(message(plain.port, { AttachmentURL: `${filesBase}/data.bin`, AttachmentName: 'data.bin' }));
    expect(outcome.kind === 'failed' ? outcome.error : outcome.kind).toBe('completed');
    expect(plain.received.at(-1)?.raw).toContain(Buffer.from([0, 1, 2, 250, 251, 252]).toString('base64'));
  });

  it('connects over SSL, checking the certificate against the server name', async () => {
    const trusted = await send(message(secure.port, { Server: 'localhost', UseSSL: '1' }), { email: { ca: cert } });
    expect(trusted.kind === 'failed' ? trusted.error : trusted.kind).toBe('completed');
    expect(secure.received).toHaveLength(1);
    const untrusted = await send(message(secure.port, { Server: 'localhost', UseSSL: '1' }));
    expect(untrusted).toMatchObject({ kind: 'failed', error: expect.stringMatching(/sending the e-mail failed: .*certificate/) });
  });

  it('upgrades a plain connection with STARTTLS when the server offers it', async () => {
    const outcome = await send(message(startTls.port, { Server: 'localhost', UseSSL: '0' }), { email: { ca: cert } });
    expect(outcome.kind === 'failed' ? outcome.error : outcome.kind).toBe('completed');
    expect(startTls.received.at(-1)?.secure).toBe(true);
    expect(plain.received.every((mail) => !mail.secure)).toBe(true);
    expect(secure.received.every((mail) => mail.secure)).toBe(true);
  });

  it('fails clearly on a wrong password, without repeating it', async () => {
    const outcome = await send(message(plain.port, { Password: 'wrong-password-77' }));
    expect(outcome).toMatchObject({ kind: 'failed', error: expect.stringMatching(/^send: sending the e-mail failed: .*Invalid/) });
    expect(outcome.kind === 'failed' ? outcome.error : '').not.toContain('wrong-password-77');
  });

  it('refuses SMTP servers and attachment URLs on private addresses unless the service allows them', async () => {
    const closed = { http: { allowPrivateNetworks: false, timeoutMs: 5000, maxResponseBytes: 1024 * 1024 } };
    const before = plain.received.length;
    expect(await send(message(plain.port), closed)).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('127.0.0.1 are not allowed: loopback address'),
    });
    expect(await send(message(plain.port, { Server: 'localhost' }), closed)).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('localhost are not allowed: it resolves to a non-public address'),
    });
    expect(await send(message(plain.port, { AttachmentURL: `${filesBase}/data.bin` }), closed)).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('not allowed'),
    });
    expect(plain.received.length).toBe(before);
  });

  it('refuses an attachment given twice or not Base64', async () => {
    expect(await send(message(plain.port, { Attachment: 'YQ==', AttachmentURL: `${filesBase}/x` }))).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('not both'),
    });
    expect(await send(message(plain.port, { Attachment: '***' }))).toMatchObject({ kind: 'failed', error: expect.stringContaining('must be Base64') });
  });
});
