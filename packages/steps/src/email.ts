import * as http from 'node:http';
import * as https from 'node:https';
import { isIP } from 'node:net';
import type * as Nodemailer from 'nodemailer';
import { z } from 'zod';
import { defineStepKind, EgressRefusedError, InvalidStepInputError, StepFailedError, type StepKind } from '@ces/language';
import { libraryOnFirstUse } from '@ces/formats';
import { createEgressPolicy, type EgressOptions, type EgressPolicy } from './egress-policy.ts';
import { integerArg } from './arg-types.ts';

export interface EmailStepOptions extends EgressOptions {
  /** Longest a connection, the server's greeting or any reply may take. */
  readonly timeoutMs: number;
  /** Largest attachment, given or fetched. */
  readonly maxAttachmentBytes: number;
  /** Certificates trusted besides the system's for the SMTP server's TLS (a private CA). */
  readonly ca?: string;
}

/** Loaded by the first e-mail sent: a process that sends none never loads it. */
const nodemailer = libraryOnFirstUse<typeof Nodemailer>('nodemailer');

const BASE64 = /^[A-Za-z0-9+/\s]*={0,2}\s*$/;
const MAX_BODY = 5 * 1024 * 1024;
/** SMTP failures before anything was handed over: another attempt may reach the server. */
const CONNECTION_ERRORS = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS']);

// The original takes 1 and 0 as well as true and false.
const flag = z.preprocess(
  (value) =>
    typeof value === 'string' ? (({ '1': true, '0': false, true: true, false: false } as Record<string, boolean>)[value.trim().toLowerCase()] ?? value) : value,
  z.boolean({ error: 'expected 1 or 0 (true or false)' }),
);
const addresses = z.string().max(10_000).default('');

/** The address of `host` that the egress policy allows, checked once and connected to as is. */
function allowedAddress(policy: EgressPolicy, host: string): Promise<string> {
  policy.checkHost(host);
  if (isIP(host) !== 0) return Promise.resolve(host);
  return new Promise((resolve, reject) =>
    policy.lookup(host, { family: 0 }, (error, address) => {
      if (error) reject(error instanceof StepFailedError ? error : new StepFailedError(`the SMTP server ${host} cannot be resolved: ${error.message}`));
      else resolve(String(address));
    }),
  );
}

/** An attachment fetched from a URL, through the same egress policy as HTTP steps. */
function fetchAttachment(url: URL, policy: EgressPolicy, options: EmailStepOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).get(url, { lookup: policy.lookup, timeout: options.timeoutMs }, (response) => {
      if ((response.statusCode ?? 0) >= 400) {
        response.resume();
        reject(new StepFailedError(`AttachmentURL answered ${response.statusCode}`, { retryable: false }));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxAttachmentBytes) {
          request.destroy(new StepFailedError(`the attachment is larger than ${options.maxAttachmentBytes} bytes`, { retryable: false }));
          return;
        }
        chunks.push(chunk);
      });
      response.on('end', () => resolve(Buffer.concat(chunks)));
      response.on('error', reject);
    });
    request.on('timeout', () => request.destroy(new StepFailedError(`AttachmentURL did not answer within ${options.timeoutMs} ms`)));
    request.on('error', (error) =>
      reject(error instanceof StepFailedError ? error : new StepFailedError(`AttachmentURL could not be fetched: ${error.message}`)),
    );
  });
}

export function createSendEmailStep(options: EmailStepOptions): StepKind {
  const policy = createEgressPolicy(options);
  return defineStepKind({
    kind: 'email.send',
    description:
      'Sends an e-mail over SMTP: `server` and `port` (reached through the same egress policy as HTTP steps), `useSsl` (TLS from the start, the default; otherwise STARTTLS when the server offers it), `username` and `password` (AUTH), `from` (the username when empty), `to`, `cc`, `bcc` (comma-separated), `subject`, `body` (plain text), and one attachment: `attachment` (Base64) or `attachmentUrl` (fetched through the egress policy), named `attachmentName`. Never interrupted by a cancellation: the message may already be on its way. Result: `{ success: "true" }`.',
    argsSchema: z.strictObject({
      server: z.string().min(1).max(253),
      port: integerArg(1, 65535),
      useSsl: flag.default(true),
      username: z.string().max(1000).default(''),
      password: z.string().max(1000).default(''),
      from: addresses,
      to: z.string().min(1, 'ToAddress is required').max(10_000),
      cc: addresses,
      bcc: addresses,
      subject: z.string().max(10_000),
      body: z.string().max(MAX_BODY),
      attachment: z
        .string()
        .max(MAX_BODY * 2)
        .default(''),
      attachmentName: z.string().max(255).default(''),
      attachmentUrl: z.string().max(8192).default(''),
    }),
    example: {
      server: '{{inputs.Server}}',
      port: '{{inputs.Port}}',
      to: '{{inputs.ToAddress}}',
      subject: '{{inputs.Subject}}',
      body: '{{inputs.MessageBody}}',
    },
    run: async (args) => {
      if (args.attachment !== '' && args.attachmentUrl !== '') throw new InvalidStepInputError('give Attachment or AttachmentURL, not both');
      if (args.from === '' && args.username === '') throw new InvalidStepInputError('FromAddress is required when there is no Username');
      let content: Buffer | undefined;
      if (args.attachment !== '') {
        if (!BASE64.test(args.attachment)) throw new InvalidStepInputError('Attachment must be Base64');
        content = Buffer.from(args.attachment, 'base64');
        if (content.length > options.maxAttachmentBytes) throw new InvalidStepInputError(`the attachment is larger than ${options.maxAttachmentBytes} bytes`);
      } else if (args.attachmentUrl !== '') {
        const url = URL.canParse(args.attachmentUrl) ? new URL(args.attachmentUrl) : undefined;
        if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
          throw new InvalidStepInputError('AttachmentURL must be an http:// or https:// URL');
        policy.checkHost(url.hostname);
        content = await fetchAttachment(url, policy, options);
      }
      const host = args.server.replace(/^\[|\]$/g, '');
      let address: string;
      try {
        address = await allowedAddress(policy, host);
      } catch (error) {
        if (error instanceof EgressRefusedError) throw new EgressRefusedError(error.message.replace(/^requests to/, 'e-mail to the SMTP server'));
        throw error;
      }
      const transport = nodemailer().createTransport({
        host: address,
        port: args.port,
        secure: args.useSsl,
        // The checked address is connected to; the certificate is checked against the name given.
        ...(isIP(host) === 0 ? { servername: host } : {}),
        ...(args.username !== '' ? { auth: { user: args.username, pass: args.password } } : {}),
        connectionTimeout: options.timeoutMs,
        greetingTimeout: options.timeoutMs,
        socketTimeout: options.timeoutMs,
        tls: { ...(isIP(host) === 0 ? { servername: host } : {}), ...(options.ca ? { ca: options.ca } : {}) },
        // Only what the step is given is sent: never a file or a URL the message names.
        disableFileAccess: true,
        disableUrlAccess: true,
      });
      try {
        await transport.sendMail({
          from: args.from !== '' ? args.from : args.username,
          to: args.to,
          ...(args.cc !== '' ? { cc: args.cc } : {}),
          ...(args.bcc !== '' ? { bcc: args.bcc } : {}),
          subject: args.subject,
          text: args.body,
          ...(content ? { attachments: [{ filename: args.attachmentName !== '' ? args.attachmentName : 'attachment', content }] } : {}),
        });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        throw new StepFailedError(`sending the e-mail failed: ${(error as Error).message}`, {
          retryable: typeof code === 'string' && CONNECTION_ERRORS.has(code),
        });
      } finally {
        transport.close();
      }
      return { success: 'true' };
    },
  });
}
