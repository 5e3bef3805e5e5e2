import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

describe('output filters through the API and a worker', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('adds the JSONPath result of a JSON output (JSON request form)', async () => {
    const res = await stack.call('POST', '/choreos/Library/Utilities/Development/Echo', stack.credentials.alice, {
      body: JSON.stringify({
        inputs: [{ name: 'Message', value: 'hi there' }],
        outputFilters: [{ name: 'EchoedMessage', path: '$.message', variable: 'JSON' }],
      }),
    });
    expect(res.status, res.text).toBe(200);
    const { output, execution } = res.json();
    expect(execution.status).toBe('SUCCESS');
    expect(output.EchoedMessage).toBe('hi there');
    expect(JSON.parse(output.JSON).message).toBe('hi there');
  });

  it('adds the XPath result of an XML output (XML request and response)', async () => {
    const body =
      '<inputs><input><name>JSON</name><value>{"a":{"b":"deep value"}}</value></input>' +
      '<input><name>RootElement</name><value>doc</value></input>' +
      '<outputFilters><filter><name>B</name><path>/doc/a/b</path><variable>XML</variable></filter></outputFilters></inputs>';
    const res = await stack.call('POST', '/choreos/Library/Utilities/DataConversions/JSONToXML', stack.credentials.alice, {
      body,
      accept: 'application/xml',
      headers: { 'content-type': 'application/xml' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain('<status>SUCCESS</status>');
    expect(res.text).toContain('<output><name>B</name><value>deep value</value></output>');
  });

  it('ends the run as ERROR when a filter cannot be applied', async () => {
    const res = await stack.call('POST', '/choreos/Library/Utilities/Development/Echo', stack.credentials.alice, {
      body: JSON.stringify({
        inputs: [{ name: 'Message', value: 'x' }],
        outputFilters: [{ name: 'Missing', path: '$.message', variable: 'NoSuchOutput' }],
      }),
    });
    expect(res.status, res.text).toBe(200);
    const { execution } = res.json();
    expect(execution.status).toBe('ERROR');
    const stored = (await stack.call('GET', `/choreo-executions/${execution.id}`, stack.credentials.alice)).json();
    expect(stored.execution.lasterror).toMatch(/output filter/i);
  });
});

describe('a run uses the definition it was accepted with', () => {
  let stack: Stack;
  let catalogue: string;
  const file = () => join(catalogue, 'Library', 'Test', 'Versioned.json');
  const writeVersion = (version: string) =>
    writeFileSync(
      file(),
      JSON.stringify({
        description: 'Reports the version of its own definition.',
        inputs: {},
        outputs: { Version: { description: 'The definition version.', type: 'STRING_VARIABLE', value: '{{steps.v.version}}' } },
        steps: [{ id: 'v', kind: 'noop', args: { version } }],
      }),
    );

  beforeAll(async () => {
    catalogue = mkdtempSync(join(tmpdir(), 'ces-catalogue-'));
    mkdirSync(join(catalogue, 'Library', 'Test'), { recursive: true });
    writeVersion('v1');
    // No worker yet: the first run waits in the queue while the catalogue changes.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 0, choreosDir: catalogue });
  });

  afterAll(async () => {
    await stack?.stop();
    rmSync(catalogue, { recursive: true, force: true });
  });

  it('keeps the old definition for a queued run after the catalogue changes', async () => {
    const first = await stack.startRun('/Library/Test/Versioned', stack.credentials.alice);
    writeVersion('v2');
    // A new API process loads the changed catalogue, as a rolling deploy would.
    const newApi = await stack.addApi();
    const second = await stack.startRun('/Library/Test/Versioned', stack.credentials.alice, {}, newApi);
    stack.addWorker();

    await stack.waitForEnd(first, stack.credentials.alice);
    await stack.waitForEnd(second, stack.credentials.alice);
    const outputs = async (id: string) => (await stack.call('GET', `/choreo-executions/${id}?view=outputs`, stack.credentials.alice)).json();
    expect((await outputs(first)).output.Version).toBe('v1');
    expect((await outputs(second)).output.Version).toBe('v2');
  });
});
