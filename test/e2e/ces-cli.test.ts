import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureSelfSignedCertificate, findFreePort } from '@ces/local-runtime';
import { waitFor } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startStack, type Stack } from '../support/stack.ts';

const CES = fileURLToPath(new URL('../../apps/cli/src/main.ts', import.meta.url));
const DEVELOPMENT = '/Library/Utilities/Development';

interface CesResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment without any CES_* of the machine running the tests. */
function cleanEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter(([name, value]) => !name.startsWith('CES_') && value !== undefined)) as Record<string, string>;
}

const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;

// `ces` as a real process against a real service (API, workers, HTTPS with its own certificate).
describe('the ces command line', { timeout: 60_000 }, () => {
  let stack: Stack;
  let caFile: string;
  const files = mkdtempSync(join(tmpdir(), 'ces-cli-'));

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
    caFile = (await ensureSelfSignedCertificate(stack.dataDir)).certFile;
  });

  afterAll(async () => {
    await stack?.stop();
    rmSync(files, { recursive: true, force: true });
  });

  function env(overrides: Record<string, string | undefined> = {}): Record<string, string> {
    const alice = stack.credentials.alice;
    const all = {
      ...cleanEnv(),
      CES_URL: `https://127.0.0.1:${stack.port}`,
      CES_ACCOUNT: alice.account,
      CES_USER: alice.name,
      CES_PASSWORD: alice.secret,
      CES_CA_FILE: caFile,
      ...overrides,
    };
    return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined)) as Record<string, string>;
  }

  /** `ces <args>` with its output to pipes; under a pseudo-terminal (util-linux `script`) with `tty`. */
  function ces(args: string[], options: { env?: Record<string, string | undefined>; tty?: boolean } = {}): Promise<CesResult> {
    const [command, commandArgs] = options.tty
      ? ['script', ['-qec', [process.execPath, CES, ...args].map(quote).join(' '), '/dev/null']]
      : [process.execPath, [CES, ...args]];
    return new Promise((resolve, reject) => {
      const child = spawn(command as string, commandArgs as string[], { env: env(options.env), stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
  }

  it('runs a Choreo and follows it: each step as it ends, then the outputs, exit 0 (not a terminal: plain lines)', async () => {
    const result = await ces(['run', `${DEVELOPMENT}/Echo`, '-i', 'Message=hello there']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^✓ now {2}\d/m);
    expect(result.stderr).toMatch(/^✓ build {2}\d/m);
    expect(result.stderr).toMatch(/^SUCCESS {2}\/Library\/Utilities\/Development\/Echo in /m);
    // No live line when stderr is not a terminal.
    expect(result.stderr).not.toContain('\r');
    expect(result.stdout).toContain('Message: hello there\n');
  });

  it('takes an input from a file with Name=@file', async () => {
    const file = join(files, 'message.txt');
    writeFileSync(file, 'from a file');
    const result = await ces(['run', `${DEVELOPMENT}/Echo`, '-i', `Message=@${file}`, '--json']);
    expect(result.code, result.stderr).toBe(0);
    const last = JSON.parse(result.stdout.trim().split('\n').at(-1) as string);
    expect(last).toMatchObject({ type: 'outputs', execution: { status: 'SUCCESS' }, output: { Message: 'from a file' } });
  });

  it('exits 1 when the run ends ERROR, and says why', async () => {
    const result = await ces(['run', `${DEVELOPMENT}/Fail`, '-i', 'Message=broken on purpose']);
    expect(result.code, result.stderr).toBe(1);
    expect(result.stderr).toMatch(/^✗ fail {2}.*failed: broken on purpose/m);
    expect(result.stderr).toContain('ERROR: fail: broken on purpose');
  });

  it('redrives a failed run: a new execution that names the old one, followed to its end', async () => {
    const failed = JSON.parse((await ces(['run', `${DEVELOPMENT}/Fail`, '--json'])).stdout.trim().split('\n').at(-1) as string);
    expect(failed.execution.status).toBe('ERROR');
    const redriven = await ces(['runs', 'redrive', failed.execution.id, '-i', 'Message=failed again']);
    // Fail fails whatever its inputs: the redrive ends ERROR too, with the input it was given.
    expect(redriven.code, redriven.stderr).toBe(1);
    expect(redriven.stderr).toContain(`redriving ${failed.execution.id}`);
    expect(redriven.stderr).toContain('ERROR: fail: failed again');
    const listed = JSON.parse((await ces(['runs', 'list', '--choreo', `${DEVELOPMENT}/Fail`, '--limit', '1', '--json'])).stdout);
    const shown = JSON.parse((await ces(['runs', 'show', listed.executions[0].id, '--json'])).stdout);
    expect(shown.execution.redriveOf).toBe(failed.execution.id);
  });

  it('starts a run with --async, terminates it, and follows it to TERMINATED_MANUALLY: exit 2', async () => {
    const started = await ces(['run', `${DEVELOPMENT}/Countdown`, '-i', 'StepMilliseconds=400', '--async']);
    expect(started.code, started.stderr).toBe(0);
    const id = started.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const terminated = await ces(['runs', 'terminate', id]);
    expect(terminated.code, terminated.stderr).toBe(0);
    const followed = await ces(['runs', 'follow', id]);
    expect(followed.code, followed.stderr).toBe(2);
    expect(followed.stderr).toContain('TERMINATED_MANUALLY');
  });

  it('follows an async run to its end, with --json: one event a line, execution.ended, then the outputs', async () => {
    const started = JSON.parse((await ces(['run', `${DEVELOPMENT}/Echo`, '-i', 'Message=later', '--async', '--json'])).stdout);
    expect(started.execution.status).toBe('RUNNING');
    const followed = await ces(['runs', 'follow', started.id, '--json']);
    expect(followed.code, followed.stderr).toBe(0);
    const lines = followed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.filter((line) => line.type.startsWith('step.')).map((line) => `${line.type} ${line.address}`)).toEqual([
      'step.started now',
      'step.ended now',
      'step.started build',
      'step.ended build',
    ]);
    // Every event but the outputs carries its id, for resuming.
    expect(lines.slice(0, -1).every((line) => typeof line.id === 'string' && line.id !== '')).toBe(true);
    expect(lines.at(-2)).toMatchObject({ type: 'execution.ended', execution: { id: started.id, status: 'SUCCESS' } });
    expect(lines.at(-1)).toMatchObject({ type: 'outputs', output: { Message: 'later' } });
  });

  it('draws a live line for the current step on a terminal', async () => {
    const result = await ces(['run', `${DEVELOPMENT}/Countdown`, '-i', 'StepMilliseconds=250'], { tty: true });
    expect(result.code, result.stdout).toBe(0);
    // Under the pseudo-terminal stdout and stderr are one stream. The live line is redrawn in place
    // (carriage return, erase line, a spinner, the step running and for how long), and every
    // step's line still ends up on its own.
    expect(result.stdout).toMatch(new RegExp(`\r${String.fromCharCode(27)}\\[2K[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] wait\\d+  \\d+ ms`));
    for (let step = 1; step <= 10; step += 1) expect(result.stdout).toMatch(new RegExp(`✓ wait${step} {2}\\d`));
    expect(result.stdout).toContain('CompletedSteps: 10');
  });

  it('stops following on Ctrl-C, says how to follow again, and leaves the run going', async () => {
    const id = (await ces(['run', `${DEVELOPMENT}/Countdown`, '-i', 'StepMilliseconds=1000', '--async'])).stdout.trim();
    const child = spawn(process.execPath, [CES, 'runs', 'follow', id], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    await waitFor(() => stderr.includes('✓ wait1'), { timeoutMs: 20_000, intervalMs: 50, what: 'the first step to end' });
    child.kill('SIGINT');
    expect(await closed).toBe(130);
    expect(stderr).toContain(`stopped following ${id}, which goes on; follow it again with: ces runs follow ${id}`);
    const shown = JSON.parse((await ces(['runs', 'show', id, '--json'])).stdout);
    expect(shown.execution.status).toBe('RUNNING');
    expect((await ces(['runs', 'terminate', id])).code).toBe(0);
  });

  it('lists and shows runs, with their step history', async () => {
    const run = await ces(['run', `${DEVELOPMENT}/Echo`, '-i', 'Message=listed', '--json']);
    const id = JSON.parse(run.stdout.trim().split('\n').at(-1) as string).execution.id as string;
    const list = await ces(['runs', 'list', '--status', 'success', '--choreo', `${DEVELOPMENT}/Echo`, '--since', '1h', '--json']);
    expect(list.code, list.stderr).toBe(0);
    expect((JSON.parse(list.stdout).executions as { id: string }[]).map((e) => e.id)).toContain(id);
    const table = await ces(['runs', 'list', '--since', '1h']);
    expect(table.stdout).toMatch(new RegExp(`^${id} +${DEVELOPMENT}/Echo +SUCCESS`, 'm'));

    const shown = await ces(['runs', 'show', id]);
    expect(shown.stdout).toMatch(/^status: +SUCCESS$/m);
    expect(shown.stdout).toContain('Message: listed');
    const steps = JSON.parse((await ces(['runs', 'show', id, '--steps', '--json'])).stdout);
    expect(steps.steps.map((s: { address: string; outcome: string }) => [s.address, s.outcome])).toEqual([
      ['now', 'succeeded'],
      ['build', 'succeeded'],
    ]);
  });

  it('lists, shows and pushes Choreos; a document that is not one shows its problems', async () => {
    const list = JSON.parse((await ces(['choreos', 'list', '--json'])).stdout);
    expect(list.choreos).toContain(`${DEVELOPMENT}/Echo`);
    const shown = await ces(['choreos', 'show', `${DEVELOPMENT}/Echo`]);
    expect(shown.stdout).toMatch(/^Message +The message to echo\.$/m);

    const file = join(files, 'greeter.json');
    writeFileSync(
      file,
      JSON.stringify({
        description: 'Greets someone.',
        inputs: { Name: { description: 'Who to greet.', required: true } },
        outputs: { Greeting: { description: 'The greeting.', value: '{{steps.say.text}}' } },
        steps: [{ id: 'say', kind: 'text.template', args: { text: 'Hello, {{inputs.Name}}' } }],
      }),
    );
    const pushed = await ces(['choreos', 'push', file, '/Tools/Greeter']);
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(pushed.stdout).toContain('created /Tools/Greeter: version 1');
    const greeted = await ces(['run', 'Tools/Greeter', '-i', 'Name=Ada']);
    expect(greeted.stdout).toContain('Greeting: Hello, Ada');

    const bad = join(files, 'bad.json');
    writeFileSync(bad, JSON.stringify({ steps: [{ id: 'x', kind: 'text.shout' }] }));
    const refused = await ces(['choreos', 'push', bad, '/Tools/Bad']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/\/steps\/0: unknown step kind "text.shout"/);
  });

  it('stores, shows, lists and deletes presets, and a run takes its inputs from one', async () => {
    const put = await ces(['presets', 'put', 'greeting', '-i', 'Message=from a preset', '-i', 'Token=t0p', '--secret', 'Token']);
    expect(put.code, put.stderr).toBe(0);
    const shown = JSON.parse((await ces(['presets', 'show', 'greeting', '--values', '--json'])).stdout);
    expect(shown.inputs).toEqual([
      { name: 'Message', value: 'from a preset', secret: false },
      { name: 'Token', value: '********', secret: true },
    ]);
    expect(JSON.parse((await ces(['presets', 'list', '--json'])).stdout).presets).toContain('greeting');
    const run = await ces(['run', `${DEVELOPMENT}/Echo`, '--preset', 'greeting']);
    expect(run.stdout).toContain('Message: from a preset');
    expect((await ces(['presets', 'delete', 'greeting'])).code).toBe(0);
    const gone = await ces(['presets', 'show', 'greeting']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('404 NOT_FOUND');
  });

  it('exits 3 with a clear message for a wrong URL, an untrusted certificate, bad credentials or bad usage', async () => {
    const nobody = await findFreePort();
    const wrongUrl = await ces(['choreos', 'list'], { env: { CES_URL: `https://127.0.0.1:${nobody}` } });
    expect(wrongUrl.code).toBe(3);
    expect(wrongUrl.stderr).toContain(`cannot reach https://127.0.0.1:${nobody} (ECONNREFUSED)`);

    // Something else at the address: a web server without TLS, asked over https and over http.
    const other = createServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>'));
    other.listen(0, '127.0.0.1');
    await once(other, 'listening');
    try {
      const otherUrl = `127.0.0.1:${(other.address() as AddressInfo).port}`;
      const noTls = await ces(['choreos', 'list'], { env: { CES_URL: `https://${otherUrl}` } });
      expect(noTls.code).toBe(3);
      expect(noTls.stderr).toContain(`https://${otherUrl} does not speak HTTPS`);
      const notTheService = await ces(['choreos', 'list'], { env: { CES_URL: `http://${otherUrl}` } });
      expect(notTheService.code).toBe(3);
      expect(notTheService.stderr).toContain(`http://${otherUrl} answered 404 Not Found without the service's error body; check the URL`);
    } finally {
      other.close();
    }

    const untrusted = await ces(['choreos', 'list'], { env: { CES_CA_FILE: undefined } });
    expect(untrusted.code).toBe(3);
    expect(untrusted.stderr).toContain(`the certificate of https://127.0.0.1:${stack.port} is not trusted`);

    const badCredentials = await ces(['choreos', 'list'], { env: { CES_PASSWORD: 'not the password' } });
    expect(badCredentials.code).toBe(3);
    expect(badCredentials.stderr).toContain('refused the credentials (401)');

    const usage = await ces(['run']);
    expect(usage.code).toBe(3);
    expect(usage.stderr).toContain('run takes <choreo>, not 0');
    const unknown = await ces(['runs', 'show', 'f'.repeat(32)]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('404 NOT_FOUND');
  });

  it('explains itself: ces --help and each command --help', async () => {
    const help = await ces(['--help'], { env: { CES_ACCOUNT: undefined } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: ces <command> [options]');
    const runHelp = await ces(['run', '--help']);
    expect(runHelp.stdout).toContain('Exit status: 0 SUCCESS, 1 ERROR, 2 TERMINATED_MANUALLY or TERMINATED_LIMIT.');
  });
});
