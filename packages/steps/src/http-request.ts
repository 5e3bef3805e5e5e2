import http from 'node:http';
import https from 'node:https';
import { z } from 'zod';
import { defineStepKind, InvalidStepInputError, StepFailedError, type StepKind, StepTimeoutError } from '@ces/language';
import { integerArg, stringMapArg } from './arg-types.ts';
import { optionalFlagArg } from './lenient-args.ts';
import { createEgressPolicy } from './egress-policy.ts';
import { httpLog } from './http-log.ts';
import type { EgressOptions } from './egress-policy.ts';

export interface HttpStepOptions extends EgressOptions {
  /** Upper bound for a whole request, response body included; a step's `timeoutMs` can only lower it. */
  readonly timeoutMs: number;
  /** A larger response body fails the step. */
  readonly maxResponseBytes: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** With `debug`: the request as sent and the response as received (http-log.ts). */
  log?: string;
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
const MAX_REQUEST_BODY = 10 * 1024 * 1024;

export function createHttpRequestStep(options: HttpStepOptions): StepKind {
  const policy = createEgressPolicy(options);
  // Own agents: sockets are never shared with other code in the process nor with libraries
  // created with a different egress policy.
  const agents = { 'http:': new http.Agent(), 'https:': new https.Agent() };

  return defineStepKind({
    kind: 'http.request',
    description:
      'Sends an HTTP(S) request: `method` (default GET), `url`, `headers` and `query` (objects, or JSON object text), `body` (text) or `encodedBody` (Base64 of bytes), `contentType` (sets Content-Type unless `headers` has one), `username` and `password` (Basic authentication when `username` is not empty), `debug` (adds `log`), `timeoutMs`. Redirects are not followed. Destinations that resolve to loopback, private, link-local, metadata or other non-public addresses are refused unless the service allows them. The response body is read as UTF-8 up to a size limit. Never interrupted by a cancellation: the far side may already have acted. Result: `{ status, headers, body }` (header names lower-case), and `log` with `debug`.',
    argsSchema: z.strictObject({
      method: z.string().trim().toUpperCase().pipe(z.enum(METHODS)).default('GET'),
      url: z.string().min(1).max(8192),
      headers: stringMapArg.default({}),
      query: stringMapArg.default({}),
      body: z.string().max(MAX_REQUEST_BODY).optional(),
      encodedBody: z
        .string()
        .max(Math.ceil((MAX_REQUEST_BODY * 4) / 3) + 4)
        .optional(),
      username: z.string().max(1000).optional(),
      password: z.string().max(1000).optional(),
      debug: optionalFlagArg,
      contentType: z.string().max(200).optional(),
      timeoutMs: integerArg(1, 24 * 60 * 60 * 1000).optional(),
    }),
    example: { method: 'GET', url: '{{inputs.URL}}', headers: '{{inputs.RequestHeaders}}' },
    run: async (args, context) => {
      const url = requestUrl(args.url);
      for (const [name, value] of Object.entries(args.query)) url.searchParams.append(name, value);
      policy.checkHost(url.hostname);
      const headers = { ...args.headers };
      if (args.username !== undefined && args.username !== '') {
        for (const name of Object.keys(headers)) if (name.toLowerCase() === 'authorization') delete headers[name];
        headers.authorization = `Basic ${Buffer.from(`${args.username}:${args.password ?? ''}`, 'utf8').toString('base64')}`;
      }
      const body = requestBody(args.body, args.encodedBody);
      const hasContentType = Object.keys(headers).some((name) => name.toLowerCase() === 'content-type');
      if (args.contentType !== undefined && args.contentType !== '' && !hasContentType) headers['content-type'] = args.contentType;
      const timeoutMs = Math.min(options.timeoutMs, args.timeoutMs ?? Number.POSITIVE_INFINITY);
      return send(url, {
        method: args.method,
        headers,
        body,
        debug: args.debug,
        timeoutMs,
        maxResponseBytes: options.maxResponseBytes,
        lookup: policy.lookup,
        agent: agents[url.protocol],
        signal: context.signal,
      });
    },
  });
}

/**
 * GETs a resource under the same egress policy and limits as `http.request`, for steps that take a
 * URL of a file to work on (the original's `URL` inputs): its body's bytes, Base64-encoded. An
 * answer other than 2xx fails the step.
 */
export function createResourceFetcher(options: HttpStepOptions): (url: string, signal: AbortSignal) => Promise<string> {
  const policy = createEgressPolicy(options);
  const agents = { 'http:': new http.Agent(), 'https:': new https.Agent() };
  return async (text, signal) => {
    const url = requestUrl(text);
    policy.checkHost(url.hostname);
    const response = await send(url, {
      method: 'GET',
      headers: {},
      body: undefined,
      debug: false,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: options.maxResponseBytes,
      lookup: policy.lookup,
      agent: agents[url.protocol],
      signal,
      bodyEncoding: 'base64',
    });
    if (response.status < 200 || response.status > 299) throw new StepFailedError(`GET ${url.origin}${url.pathname} answered ${response.status}`);
    return response.body;
  };
}

export type RequestUrl = URL & { protocol: 'http:' | 'https:' };

export function requestUrl(text: string): RequestUrl {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidStepInputError(`${JSON.stringify(text.slice(0, 200))} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InvalidStepInputError(`only http and https URLs are allowed, not ${url.protocol.slice(0, -1)}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new InvalidStepInputError('credentials in the URL are not accepted; send an Authorization header instead');
  }
  return url as RequestUrl;
}

/** The body as text or as Base64 bytes (the original's EncodedData), not both. */
function requestBody(text: string | undefined, base64: string | undefined): string | Buffer | undefined {
  if (base64 === undefined || base64.trim() === '') return text;
  if (text !== undefined && text !== '') throw new InvalidStepInputError('give the body as text or as Base64 data, not both');
  const compact = base64.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw new InvalidStepInputError('the encoded body is not valid Base64');
  return Buffer.from(compact, 'base64');
}

interface SendOptions {
  method: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
  debug: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  lookup: http.RequestOptions['lookup'];
  agent: http.Agent;
  signal: AbortSignal;
  /** How the response body is given back: UTF-8 text (the default), or its bytes in Base64. */
  bodyEncoding?: 'utf8' | 'base64';
}

function send(url: URL, options: SendOptions): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | undefined, response?: HttpResponse) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      if (error !== undefined) reject(error);
      else if (response !== undefined) resolve(response);
    };
    let request: http.ClientRequest;
    try {
      request = (url.protocol === 'https:' ? https : http).request(url, {
        method: options.method,
        headers: options.headers,
        lookup: options.lookup,
        agent: options.agent,
      });
    } catch (error) {
      // node:http validates header names and values synchronously.
      reject(new InvalidStepInputError(`the request is not valid: ${(error as Error).message}`));
      return;
    }
    const fail = (error: Error) => {
      request.destroy();
      finish(error);
    };
    const timer = setTimeout(() => fail(new StepFailedError(`HTTP request timed out after ${options.timeoutMs} ms`)), options.timeoutMs);
    // Cancellation lets the request finish; only the step's own timeout cuts it short.
    const onAbort = () => {
      if (options.signal.reason instanceof StepTimeoutError) fail(options.signal.reason);
    };
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });

    request.on('error', (error) =>
      finish(error instanceof StepFailedError ? error : new StepFailedError(`HTTP request failed: ${error.message}`, { cause: error })),
    );
    request.on('response', (response) => {
      // A HEAD, 204 or 304 answer declares the length of a body it does not send.
      const status = response.statusCode ?? 0;
      const bodyless = options.method === 'HEAD' || status === 204 || status === 304;
      const declared = Number(response.headers['content-length']);
      if (!bodyless && Number.isFinite(declared) && declared > options.maxResponseBytes) {
        fail(tooLarge(options.maxResponseBytes));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxResponseBytes) fail(tooLarge(options.maxResponseBytes));
        else chunks.push(chunk);
      });
      response.on('error', (error) => finish(new StepFailedError(`HTTP response failed: ${error.message}`, { cause: error })));
      response.on('end', () => {
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
        }
        const body = Buffer.concat(chunks);
        const result: HttpResponse = { status: response.statusCode ?? 0, headers, body: body.toString(options.bodyEncoding ?? 'utf8') };
        if (options.debug) {
          result.log = httpLog({
            method: options.method,
            url,
            requestHeaders: request.getHeaders() as Record<string, string | number | string[]>,
            requestBody: options.body === undefined ? undefined : Buffer.from(options.body),
            status: result.status,
            statusMessage: response.statusMessage ?? '',
            httpVersion: response.httpVersion,
            rawResponseHeaders: response.rawHeaders,
            responseBody: body,
          });
        }
        finish(undefined, result);
      });
    });
    request.end(options.body);
  });
}

export function tooLarge(limit: number): StepFailedError {
  return new StepFailedError(`HTTP response body is larger than ${limit} bytes`, { retryable: false });
}
