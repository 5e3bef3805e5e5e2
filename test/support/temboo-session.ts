import { readFileSync } from 'node:fs';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import https, { Agent, type RequestOptions } from 'node:https';
import { createRequire } from 'node:module';
import { ensureSelfSignedCertificate } from '@ces/local-runtime';
import type { Credential, Stack } from './stack.ts';

/**
 * The original's own Node SDK (npm `temboo`), pointed at a test stack with only what the
 * specification renames: its host and port, its base path `/arcturus-web/api-1.0` →
 * `/service-api/1.0` and its header `x-temboo-domain` → `x-service-domain`. Everything else —
 * the path it joins, its query, body, headers and chunked encoding — goes out as the SDK makes it.
 *
 * The SDK calls `require('https').request(options, callback)` with a fixed host, port and path:
 * for as long as the wire is mapped, that function makes those renames in the options and connects
 * to the stack, trusting its certificate. (This module's own imports, and the rest of the test's
 * HTTPS clients, keep the function they imported.)
 */

const require = createRequire(import.meta.url);

const ORIGINAL_HOST_SUFFIX = '.temboolive.com';
const ORIGINAL_BASE_PATH = '/arcturus-web/api-1.0';
const BASE_PATH = '/service-api/1.0';
const ORIGINAL_DOMAIN_HEADER = 'x-temboo-domain';
const DOMAIN_HEADER = 'x-service-domain';

/** The SDK's session: account name, application (or user) name and secret. */
export interface TembooSession {
  getBasePath(): string;
  getIdentifier(): string;
}

/** An error the SDK hands to a Choreo's error callback. */
export interface TembooError {
  error: true;
  type: string;
  message: string;
}

export interface TembooInputSet {
  setInput(name: string, value: string): void;
  setCredential(name: string): void;
  addOutputFilter(name: string, path: string, variable: string): void;
  [setter: `set_${string}`]: (value: string) => void;
}

export interface TembooResultSet {
  getCompletionStatus(): string;
  getID(): string;
  getLastError(): string | undefined;
  getOutputs(): Record<string, string>;
  getResult(name: string): string | undefined;
  [getter: `get_${string}`]: () => string | undefined;
}

export interface TembooChoreo {
  newInputSet(): TembooInputSet;
  execute(inputs: TembooInputSet, onSuccess: (results: TembooResultSet) => void, onError: (error: TembooError) => void): void;
}

type TembooChoreoClass = new (session: TembooSession) => TembooChoreo;

/** A request as the SDK sent it, after the renames. */
export interface SentRequest {
  method: string;
  /** The request target: path and query. */
  target: string;
  headers: Record<string, string>;
  /** Whether its body went out with chunked transfer encoding. */
  chunked: boolean;
}

/** The original's SDK, mapped to one stack. */
export interface TembooWire {
  /** A session of the SDK for this credential, created by the SDK's own constructor. */
  session(credential: Credential): TembooSession;
  /** The SDK's generated class for a Choreo: `require('temboo/Library/Utilities/<family>')[choreo]`. */
  choreo(credential: Credential, family: string, choreo: string): TembooChoreo;
  /** A Choreo the SDK ships no class for, run through the SDK's core `Choreography` with its plain result set. */
  core(credential: Credential, location: string): TembooChoreo;
  /** Every request the SDK sent since the wire was mapped, oldest first. */
  readonly sent: readonly SentRequest[];
  /** Gives `https.request` back. */
  unmap(): void;
}

export async function mapTembooWire(stack: Stack, options: { serviceHost?: string } = {}): Promise<TembooWire> {
  const { certFile } = await ensureSelfSignedCertificate(stack.dataDir);
  const ca = readFileSync(certFile, 'utf8');
  const serviceHost = options.serviceHost ?? 'choreos.test';
  const agent = new Agent({ ca, keepAlive: false });
  const sent: SentRequest[] = [];
  const originalRequest = https.request;

  const mapped = (given: RequestOptions): RequestOptions => {
    const hostname = given.hostname ?? given.host ?? '';
    const account = hostname.endsWith(ORIGINAL_HOST_SUFFIX) ? hostname.slice(0, -ORIGINAL_HOST_SUFFIX.length) : hostname;
    if (Array.isArray(given.headers)) throw new Error('The SDK gives its headers as an object.');
    const headers: OutgoingHttpHeaders = { ...(given.headers as OutgoingHttpHeaders | undefined), host: `${account}.${serviceHost}:${stack.port}` };
    if (headers[ORIGINAL_DOMAIN_HEADER] !== undefined) {
      headers[DOMAIN_HEADER] = headers[ORIGINAL_DOMAIN_HEADER];
      delete headers[ORIGINAL_DOMAIN_HEADER];
    }
    const path = given.path ?? '/';
    return {
      ...given,
      hostname: '127.0.0.1',
      port: stack.port,
      servername: 'localhost',
      agent,
      path: path.startsWith(ORIGINAL_BASE_PATH) ? BASE_PATH + path.slice(ORIGINAL_BASE_PATH.length) : path,
      headers,
    };
  };
  https.request = ((given: RequestOptions, callback?: (response: IncomingMessage) => void) => {
    const request = originalRequest(mapped(given), callback);
    const entry: SentRequest = {
      method: request.method,
      target: request.path,
      headers: Object.fromEntries(Object.entries(request.getHeaders()).map(([name, value]) => [name, String(value)])),
      chunked: false,
    };
    sent.push(entry);
    request.on('finish', () => {
      entry.chunked = request.chunkedEncoding;
    });
    return request;
  }) as typeof https.request;

  const { TembooSession: Session } = require('temboo/core/temboosession') as {
    TembooSession: new (account: string, name: string, secret: string) => TembooSession;
  };
  return {
    session: (credential) => new Session(credential.account, credential.name, credential.secret),
    choreo(credential, family, choreo) {
      const Choreo = (require(`temboo/Library/Utilities/${family}`) as Record<string, TembooChoreoClass | undefined>)[choreo];
      if (!Choreo) throw new Error(`The SDK has no class ${choreo} in Library/Utilities/${family}.`);
      return new Choreo(new Session(credential.account, credential.name, credential.secret));
    },
    core(credential, location) {
      const core = require('temboo/core/choreography') as {
        Choreography: new (
          session: TembooSession,
          location: string,
        ) => {
          _execute(inputs: TembooInputSet, format: (body: string) => TembooResultSet, onSuccess: unknown, onError: unknown): void;
        };
        InputSet: new () => TembooInputSet;
        ResultSet: new (body: string) => TembooResultSet;
      };
      const choreography = new core.Choreography(new Session(credential.account, credential.name, credential.secret), location);
      return {
        newInputSet: () => new core.InputSet(),
        execute: (inputs, onSuccess, onError) => choreography._execute(inputs, (body) => new core.ResultSet(body), onSuccess, onError),
      };
    },
    sent,
    unmap() {
      https.request = originalRequest;
      agent.destroy();
    },
  };
}

/** Sets an input with the input set's own `set_<name>`, which must exist. */
export function setInput(inputs: TembooInputSet, name: string, value: string): void {
  const setter = inputs[`set_${name}`];
  if (typeof setter !== 'function') throw new Error(`The SDK's input set has no set_${name}.`);
  setter.call(inputs, value);
}

/** Every output the result set has a getter for, read with that getter. */
export function outputsByGetters(results: TembooResultSet): Record<string, string> {
  const outputs: Record<string, string> = {};
  for (const [key, getter] of Object.entries(results)) {
    if (key.startsWith('get_') && typeof getter === 'function') {
      const value: unknown = getter.call(results);
      if (value !== undefined) outputs[key.slice('get_'.length)] = String(value);
    }
  }
  return outputs;
}

/** How a run through the SDK ended: in its success callback with its results, or in its error callback. */
export type SdkOutcome = { ok: true; results: TembooResultSet } | { ok: false; error: TembooError };

/** Runs a Choreo through its class, as a program would, and resolves with the callback the SDK called. */
export function executeThroughSdk(choreo: TembooChoreo, inputs: TembooInputSet): Promise<SdkOutcome> {
  return new Promise((resolve) => {
    choreo.execute(
      inputs,
      (results) => resolve({ ok: true, results }),
      (error) => resolve({ ok: false, error }),
    );
  });
}
