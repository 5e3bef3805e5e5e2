import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ApiError, type CesClient, ConnectionError, createCesClient, type RunEvent } from '@ces/client';
import { ensureSelfSignedCertificate, findFreePort } from '@ces/local-runtime';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Credential, startStack, type Stack } from '../support/stack.ts';

const DEVELOPMENT = '/Library/Utilities/Development';
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

// @ces/client against a real service: API and a worker over HTTPS with the service's own certificate.
describe('the typed client', { timeout: 60_000 }, () => {
  let stack: Stack;
  let ca: string;
  let client: CesClient;

  const clientOf = (credential: Credential, overrides: { url?: string; ca?: string | undefined } = {}) =>
    createCesClient({
      url: overrides.url ?? `https://127.0.0.1:${stack.port}`,
      account: credential.account,
      credentials: { name: credential.name, secret: credential.secret },
      ca: 'ca' in overrides ? overrides.ca : ca,
    });

  beforeAll(async () => {
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1 });
    ca = readFileSync((await ensureSelfSignedCertificate(stack.dataDir)).certFile, 'utf8');
    client = clientOf(stack.credentials.alice);
  });

  afterAll(async () => {
    await stack?.stop();
  });

  it('runs a Choreo and waits for its outputs', async () => {
    const result = await client.run(`${DEVELOPMENT}/Echo`, { Message: 'hello' });
    expect(result.execution.status).toBe('SUCCESS');
    expect(result.output?.Message).toBe('hello');
    expect(result.id).toBe(result.execution.id);
  });

  it('starts a run asynchronously, follows its events to the end, and waits for it', async () => {
    const accepted = await client.run(`${DEVELOPMENT}/Countdown`, { StepMilliseconds: '50' }, { async: true });
    expect(accepted.execution.status).toBe('RUNNING');
    expect(accepted.output).toBeUndefined();
    const events: RunEvent[] = [];
    for await (const event of client.events(accepted.id)) events.push(event);
    expect(events.filter((event) => event.type === 'step.started').map((event) => event.address)).toEqual(Array.from({ length: 10 }, (_, i) => `wait${i + 1}`));
    const ends = events.filter((event) => event.type === 'step.ended');
    expect(ends.map((event) => event.address)).toEqual(Array.from({ length: 10 }, (_, i) => `wait${i + 1}`));
    expect(events.at(-1)).toMatchObject({ type: 'execution.ended', execution: { id: accepted.id, status: 'SUCCESS' } });
    // Resuming after an event gives exactly those that followed it.
    const resumeAfter = events[5]?.id as string;
    const rest: RunEvent[] = [];
    for await (const event of client.events(accepted.id, { lastEventId: resumeAfter })) rest.push(event);
    expect(rest.map((event) => event.id)).toEqual(events.slice(6).map((event) => event.id));
    const ended = await client.wait(accepted.id);
    expect(ended.output).toEqual({ CompletedSteps: '10' });
    const { steps } = await client.steps(accepted.id);
    expect(steps).toHaveLength(10);
  });

  it('terminates a run, which then ends TERMINATED_MANUALLY', async () => {
    const accepted = await client.run(`${DEVELOPMENT}/Countdown`, { StepMilliseconds: '500' }, { async: true });
    await client.terminate(accepted.id);
    const ended = await client.wait(accepted.id);
    expect(ended.execution.status).toBe('TERMINATED_MANUALLY');
    await expect(client.terminate(accepted.id)).resolves.toBeUndefined();
  });

  it('reads the run history with filters, page by page', async () => {
    const since = Date.now();
    const ids: string[] = [];
    for (const message of ['one', 'two', 'three']) ids.push((await client.run(`${DEVELOPMENT}/Echo`, { Message: message })).id);
    const first = await client.history({ choreo: `${DEVELOPMENT}/Echo`, status: 'SUCCESS', since, limit: 2 });
    expect(first.executions.map((e) => e.id)).toEqual([ids[2], ids[1]]);
    expect(first.next).toBeDefined();
    const second = await client.history({ choreo: `${DEVELOPMENT}/Echo`, since, limit: 2, cursor: first.next as string });
    expect(second.executions.map((e) => e.id)).toEqual([ids[0]]);
  });

  it('lists and shows Choreos and keeps presets', async () => {
    expect(await client.choreos.list()).toContain(`${DEVELOPMENT}/Echo`);
    expect((await client.choreos.show(`${DEVELOPMENT}/Echo`)).inputs.Message?.type).toBe('STRING_VARIABLE');
    expect((await client.presets.put('p1', [{ name: 'Message', value: 'from p1' }])).created).toBe(true);
    expect((await client.run(`${DEVELOPMENT}/Echo`, {}, { preset: 'p1' })).output?.Message).toBe('from p1');
    await client.presets.delete('p1');
    expect(await client.presets.list()).not.toContain('p1');
  });

  it('says what went wrong: the service refusing (ApiError), or no connection to it (ConnectionError)', async () => {
    await expect(client.status('0'.repeat(32))).rejects.toMatchObject({ name: 'ApiError', status: 404, code: 'NOT_FOUND' });
    await expect(client.events('0'.repeat(32)).next()).rejects.toBeInstanceOf(ApiError);
    const refused = await clientOf({ ...stack.credentials.alice, secret: 'wrong' })
      .choreos.list()
      .catch((error: unknown) => error);
    expect(refused).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });

    const untrusted = await clientOf(stack.credentials.alice, { ca: undefined })
      .choreos.list()
      .catch((error: unknown) => error);
    expect(untrusted).toBeInstanceOf(ConnectionError);
    expect(untrusted).toMatchObject({ problem: 'untrusted-certificate' });

    const unreachable = await clientOf(stack.credentials.alice, { url: `https://127.0.0.1:${await findFreePort()}` })
      .choreos.list()
      .catch((error: unknown) => error);
    expect(unreachable).toMatchObject({ name: 'ConnectionError', problem: 'unreachable' });
  });

  it('works in another project with nothing but its packed package', { timeout: 180_000 }, async () => {
    const project = mkdtempSync(join(tmpdir(), 'ces-client-user-'));
    try {
      // npm as the machine has it; the package's scripts find the project's Node themselves.
      const npm = 'npm';
      // As a release packs it: built to JavaScript with its declarations, exports pointing at them.
      await run(npm, ['pack', '-w', '@ces/client', '--pack-destination', project], { cwd: ROOT });
      const tarball = readdirSync(project).find((name) => name.endsWith('.tgz')) as string;
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'elsewhere', private: true, type: 'module' }));
      await run(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', `./${tarball}`], { cwd: project });
      writeFileSync(
        join(project, 'use.js'),
        `import { createCesClient } from '@ces/client';
const [url, account, name, secret, ca] = process.argv.slice(2);
const client = createCesClient({ url, account, credentials: { name, secret }, ca });
const result = await client.run('${DEVELOPMENT}/Echo', { Message: 'from elsewhere' });
console.log(JSON.stringify(result.output));`,
      );
      const alice = stack.credentials.alice;
      const used = await run(process.execPath, ['use.js', `https://127.0.0.1:${stack.port}`, alice.account, alice.name, alice.secret, ca], { cwd: project });
      expect(JSON.parse(used.stdout)).toMatchObject({ Message: 'from elsewhere' });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });
});
