import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { caseTitle } from '../cases/choreo-case.ts';
import { loadChoreoCases } from '../support/choreo-cases.ts';
import { type EchoServer, startEchoServer } from '../support/echo-server.ts';
import { startStack, type Stack } from '../support/stack.ts';
import { executeThroughSdk, mapTembooWire, outputsByGetters, setInput, type TembooWire } from '../support/temboo-session.ts';

// The original's Utilities library through the original's own Node SDK: each case of
// test/cases/*.ts that the SDK has a class for, run with that class against a real API and a
// real worker.
const suites = await loadChoreoCases('sdk');

describe("the original's Utilities library through the original's Node SDK", () => {
  let stack: Stack;
  let wire: TembooWire;
  let echoServer: EchoServer;

  beforeAll(async () => {
    echoServer = await startEchoServer();
    // The HTTP and RSS cases reach the echo server on 127.0.0.1.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, workerEnv: { HTTP_ALLOW_PRIVATE_NETWORKS: 'true' } });
    wire = await mapTembooWire(stack);
  });

  afterAll(async () => {
    wire?.unmap();
    await stack?.stop();
    await echoServer?.close();
  });

  it('finds cases to run', () => {
    expect(suites.length).toBeGreaterThan(0);
    for (const { file, cases } of suites) expect(cases.length, file).toBeGreaterThan(0);
  });

  for (const { file, cases } of suites) {
    describe(file, () => {
      it.each(cases.map((c) => [caseTitle(c), c] as const))('%s', async (_title, c) => {
        const credential = c.wrongKey ? { ...stack.credentials.acmeApp, secret: `${stack.credentials.acmeApp.secret}-wrong` } : stack.credentials.acmeApp;
        const choreo = wire.choreo(credential, c.family, c.choreo);
        const inputs = choreo.newInputSet();
        const contextInputs = c.contextInputs?.({ echoServerUrl: echoServer.url }) ?? {};
        for (const [name, value] of Object.entries({ ...c.inputs, ...contextInputs })) setInput(inputs, name, value);
        if (c.preset !== undefined) inputs.setCredential(c.preset);

        const outcome = await executeThroughSdk(choreo, inputs);
        if (c.error) {
          // Refused before it ran (the SDK's error callback), or run and ended ERROR with its lasterror.
          const failure = outcome.ok ? (outcome.results.getCompletionStatus() === 'ERROR' ? outcome.results.getLastError() : undefined) : outcome.error.message;
          expect(failure, 'the run neither was refused nor ended ERROR').toBeDefined();
          expect(failure).toMatch(c.error);
          return;
        }
        if (!outcome.ok) throw new Error(`The SDK called the error callback: ${outcome.error.type}: ${outcome.error.message}`);
        const { results } = outcome;
        expect(results.getCompletionStatus(), results.getLastError()).toBe('SUCCESS');
        expect(results.getID()).toMatch(/^[0-9a-f]{32}$/);
        const outputs = outputsByGetters(results);
        // The SDK reads only the outputs its class knows; the engine's run of the case holds the rest.
        const readable = Object.entries(c.outputs ?? {}).filter(([name]) => typeof results[`get_${name}`] === 'function');
        if (c.outputs !== undefined) expect(readable.length, 'outputs the SDK can read').toBeGreaterThan(0);
        for (const [name, value] of readable) {
          if (typeof value === 'string') expect(outputs[name], `get_${name}()`).toBe(value);
          else expect(outputs[name], `get_${name}()`).toMatch(value);
        }
        c.check?.(outputs);
      });
    });
  }

  it('is asked, by the SDK itself, for choreos//<location>, with its own query, header and chunked body', async () => {
    const before = wire.sent.length;
    const choreo = wire.choreo(stack.credentials.acmeApp, 'Encoding', 'Base64Encode');
    const inputs = choreo.newInputSet();
    setInput(inputs, 'Text', 'wire');
    const outcome = await executeThroughSdk(choreo, inputs);
    expect(outcome.ok && outputsByGetters(outcome.results).Base64EncodedText).toBe('d2lyZQ==');

    const [sent] = wire.sent.slice(before);
    expect(sent).toMatchObject({ method: 'POST', chunked: true });
    // Only the base path is renamed: the doubled slash, the query and the headers are the SDK's.
    expect(sent?.target).toMatch(/^\/service-api\/1\.0\/choreos\/\/Library\/Utilities\/Encoding\/Base64Encode\?source_id=NodeJSSDK_[\w.]+$/);
    expect(sent?.headers).toMatchObject({ 'x-service-domain': 'acme/master', accept: 'application/json', 'content-type': 'application/json' });
    expect(sent?.headers).not.toHaveProperty('content-length');
    expect(sent?.headers).not.toHaveProperty('x-temboo-domain');

    // The run is recorded with the SDK's source_id, at the Choreo's single-slash id.
    const id = outcome.ok ? outcome.results.getID() : '';
    const status = await stack.call('GET', `/choreo-executions/${id}`, stack.credentials.acmeApp);
    expect(status.json().execution).toMatchObject({ choreo: '/Library/Utilities/Encoding/Base64Encode', status: 'SUCCESS' });
    expect((await stack.executions.get(id))?.sourceId).toMatch(/^NodeJSSDK_/);
  });

  it("fills a run from the preset the SDK names with setCredential, the run's own inputs over the preset's", async () => {
    const credential = stack.credentials.acmeApp;
    const put = await stack.call('PUT', '/presets/sdk-signing', credential, {
      body: JSON.stringify({
        inputs: [
          { name: 'Key', value: 'Jefe', secret: true },
          { name: 'Text', value: 'text kept in the preset' },
        ],
      }),
    });
    expect(put.status, put.text).toBe(201);
    const signed = async (ownInputs: Record<string, string>) => {
      const choreo = wire.choreo(credential, 'Hashing', 'HmacSHA1');
      const inputs = choreo.newInputSet();
      inputs.setCredential('sdk-signing');
      for (const [name, value] of Object.entries(ownInputs)) setInput(inputs, name, value);
      const outcome = await executeThroughSdk(choreo, inputs);
      if (!outcome.ok) throw new Error(`error callback: ${outcome.error.message}`);
      expect(outcome.results.getCompletionStatus(), outcome.results.getLastError()).toBe('SUCCESS');
      return outputsByGetters(outcome.results).HmacSignature;
    };

    // The preset alone: its key and its text.
    expect(await signed({})).toBe(createHmac('sha1', 'Jefe').update('text kept in the preset').digest('base64'));
    // The run's own Text wins over the preset's; the key still comes from the preset (RFC 2202, test case 2).
    expect(await signed({ Text: 'what do ya want for nothing?' })).toBe('7/zfauXrL6LSdBbV8YTfnCWafHk=');
  });

  it("reads why a run failed from its run response, as the SDK's result set does", async () => {
    const choreo = wire.core(stack.credentials.acmeApp, '/Library/Utilities/Development/Fail');
    const inputs = choreo.newInputSet();
    inputs.setInput('Message', 'no luck');
    const outcome = await executeThroughSdk(choreo, inputs);
    if (!outcome.ok) throw new Error(`error callback: ${outcome.error.message}`);
    expect(outcome.results.getCompletionStatus()).toBe('ERROR');
    expect(outcome.results.getLastError()).toContain('no luck');
  });
});
