import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Credential, type Stack } from '../support/stack.ts';

const runBody = (inputs: Record<string, string>) => JSON.stringify({ inputs: Object.entries(inputs).map(([name, value]) => ({ name, value })) });

/** Waits `waitMs`, then says `<greeting>, <Name>`: a run long enough to be replaced or deleted under. */
function slowGreeter(greeting: string, waitMs: number) {
  return {
    description: `Greets with "${greeting}" after a wait.`,
    inputs: { Name: { description: 'Who to greet.', required: true } },
    outputs: { Greeting: { description: 'The greeting.', value: '{{steps.say.text}}' } },
    steps: [
      { id: 'wait', kind: 'control.wait', args: { milliseconds: waitMs } },
      { id: 'say', kind: 'noop', args: { text: `${greeting}, {{inputs.Name}}` } },
    ],
  };
}

function codeChoreo(description: string, code: string) {
  return {
    description,
    inputs: { Port: { description: 'A local port.', default: '1' } },
    outputs: { Result: { description: 'What the code returned.', value: '{{steps.code.result}}' } },
    steps: [{ id: 'code', kind: 'code.javascript', args: { code, input: '{{inputs.Port}}' } }],
  };
}

/** An account's own Choreos run by a real worker process, through the real API. */
describe("an account's own Choreos run by a worker", () => {
  let stack: Stack;
  let server: Server;
  let requestsReceived = 0;

  beforeAll(async () => {
    server = createServer((_req, res) => {
      requestsReceived += 1;
      res.end('reached');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
  });

  afterAll(async () => {
    await stack?.stop();
    await new Promise((resolve) => server?.close(resolve));
  });

  const put = async (id: string, document: unknown, credential: Credential = stack.credentials.alice) => {
    const res = await stack.call('PUT', `/choreos${id}`, credential, { body: JSON.stringify(document) });
    expect(res.status, res.text).toBeOneOf([200, 201]);
    return res.json() as { version: string };
  };
  const runSync = async (id: string, inputs: Record<string, string>, credential: Credential = stack.credentials.alice) => {
    const res = await stack.call('POST', `/choreos${id}`, credential, { body: runBody(inputs) });
    expect(res.status, res.text).toBe(200);
    return res.json() as { output: Record<string, string>; execution: Record<string, string> };
  };

  it('runs the current version, and a run keeps the version it was accepted with through a replace and a delete', async () => {
    await put('/Mine/Slow', slowGreeter('Hello', 1500));
    const pinned = await stack.startRun('/Mine/Slow', stack.credentials.alice, { Name: 'Ann' });
    expect((await put('/Mine/Slow', slowGreeter('Goodbye', 0))).version).toBe('2');
    const current = await runSync('/Mine/Slow', { Name: 'Bob' });
    expect(current.output).toEqual({ Greeting: 'Goodbye, Bob' });
    expect(current.execution.version).toBe('2');

    const ended = await stack.waitForEnd(pinned, stack.credentials.alice);
    expect(ended).toMatchObject({ status: 'SUCCESS', version: '1' });
    const outputs = (await stack.call('GET', `/choreo-executions/${pinned}?view=outputs`, stack.credentials.alice)).json();
    expect(outputs.output).toEqual({ Greeting: 'Hello, Ann' });

    await put('/Mine/Slow', slowGreeter('Farewell', 1500));
    const orphan = await stack.startRun('/Mine/Slow', stack.credentials.alice, { Name: 'Cy' });
    expect((await stack.call('DELETE', '/choreos/Mine/Slow', stack.credentials.alice)).status).toBe(204);
    expect(await stack.waitForEnd(orphan, stack.credentials.alice)).toMatchObject({ status: 'SUCCESS', version: '3' });
    const orphanOutputs = (await stack.call('GET', `/choreo-executions/${orphan}?view=outputs`, stack.credentials.alice)).json();
    expect(orphanOutputs.output).toEqual({ Greeting: 'Farewell, Cy' });
  });

  it("runs each account's own Choreo under one id", async () => {
    await put('/Same/Greeter', slowGreeter('From acme', 0));
    await put('/Same/Greeter', slowGreeter('From other', 0), stack.credentials.bob);
    expect((await runSync('/Same/Greeter', { Name: 'A' })).output.Greeting).toBe('From acme, A');
    expect((await runSync('/Same/Greeter', { Name: 'B' }, stack.credentials.bob)).output.Greeting).toBe('From other, B');
  });

  it('runs an instant one (its job carries the run) from the snapshot of its version', async () => {
    const encoder = (prefix: string) => ({
      description: 'Encodes a text in Base64.',
      inputs: { Text: { description: 'The text.', required: true } },
      outputs: { Encoded: { description: 'Its Base64.', value: '{{steps.encode.text}}' } },
      steps: [{ id: 'encode', kind: 'encoding.base64-encode', args: { text: `${prefix}{{inputs.Text}}` } }],
    });
    await put('/Mine/Encoder', encoder(''));
    expect((await runSync('/Mine/Encoder', { Text: 'hi' })).output.Encoded).toBe(Buffer.from('hi').toString('base64'));
    await put('/Mine/Encoder', encoder('v2:'));
    const second = await runSync('/Mine/Encoder', { Text: 'hi' });
    expect(second.output.Encoded).toBe(Buffer.from('v2:hi').toString('base64'));
    expect(second.execution.version).toBe('2');
  });

  it('runs control flow: a loop over an input, with a branch in each iteration', async () => {
    await put('/Mine/Loop', {
      description: 'Counts the items longer than two characters.',
      inputs: { Items: { description: 'A JSON array of texts.', required: true } },
      outputs: { Long: { description: 'How many are long.', value: '{% $string($count(steps.each[long = true])) %}' } },
      steps: [
        {
          id: 'each',
          forEach: '{{inputs.Items}}',
          steps: [{ id: 'measure', kind: 'noop', args: { long: '{% $length(loop.item) > 2 %}' } }],
        },
      ],
    });
    const run = await runSync('/Mine/Loop', { Items: JSON.stringify(['a', 'abc', 'abcd']) });
    expect(run.execution.status, run.execution.lasterror).toBe('SUCCESS');
    expect(run.output.Long).toBe('2');
  });

  describe('code a tenant writes fails its run only', () => {
    const failsAlone = async (id: string, document: unknown, lasterror: RegExp) => {
      await put(id, document);
      const failed = await runSync(id, { Port: String((server.address() as AddressInfo).port) });
      expect(failed.execution.status).toBe('ERROR');
      expect(failed.execution.lasterror).toMatch(lasterror);
      // The worker that ran it serves the next run, of this account and of another.
      const next = await runSync('/Library/Utilities/Development/Echo', { Message: 'still here' }, stack.credentials.bob);
      expect(next.execution.status).toBe('SUCCESS');
      expect(next.output.Message).toBe('still here');
    };

    it('a loop that never ends', async () => {
      await failsAlone('/Code/Loop', codeChoreo('Loops for ever.', 'for (;;) {}'), /^code: the code (failed: ran past its time limit|ran longer than)/);
    });

    it('allocation without bound', async () => {
      await failsAlone(
        '/Code/Hog',
        codeChoreo('Allocates without end.', 'const all = []; for (;;) all.push("x".repeat(1e8));'),
        /^code: the code failed: used more than 64 MiB of memory$/,
      );
    });

    it('a try to reach the network', async () => {
      const reach = [
        'const port = Number(input);',
        'if (typeof fetch === "function") return fetch("http://127.0.0.1:" + port);',
        'if (typeof XMLHttpRequest === "function") { const x = new XMLHttpRequest(); x.open("GET", "http://127.0.0.1:" + port, false); x.send(); return x.responseText; }',
        'if (typeof require === "function") return require("http").get("http://127.0.0.1:" + port);',
        'throw new Error("no way to the network");',
      ].join('\n');
      await failsAlone('/Code/Network', codeChoreo('Tries the network.', reach), /^code: the code failed: .*no way to the network/);
      expect(requestsReceived).toBe(0);
    });
  });

  it("runs the account's own Choreo as a sub-Choreo, and never another account's of the same id", async () => {
    const child = (text: string) => ({
      description: `Says ${text}.`,
      outputs: { Said: { description: 'What it says.', value: '{{steps.say.text}}' } },
      steps: [{ id: 'say', kind: 'noop', args: { text } }],
    });
    const parent = {
      description: 'Runs /Sub/Child as a child execution.',
      outputs: {
        Said: { description: "The child's output.", value: '{{steps.child.outputs.Said}}' },
        Status: { description: "The child's status.", value: '{{steps.child.status}}' },
      },
      steps: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Sub/Child', inputs: {} } }],
    };
    await put('/Sub/Child', child('from acme'));
    await put('/Sub/Parent', parent);
    await put('/Sub/Child', child('from other'), stack.credentials.bob);
    expect((await runSync('/Sub/Parent', {})).output).toEqual({ Said: 'from acme', Status: 'SUCCESS' });

    // The other account has a parent of its own but no child of that id: its run cannot borrow acme's.
    await put(
      '/Sub/Lonely',
      { ...parent, steps: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Sub/Elsewhere', inputs: {} } }] },
      stack.credentials.bob,
    );
    await put('/Sub/Elsewhere', child('only acme has this'));
    const refused = await runSync('/Sub/Lonely', {}, stack.credentials.bob);
    expect(refused.execution.status).toBe('ERROR');
    expect(refused.execution.lasterror).toMatch(/Sub\/Elsewhere/);
  });
});
