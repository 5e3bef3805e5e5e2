import { spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { findFreePort } from '@ces/local-runtime';
import { waitFor, must } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpsClient } from '../support/https-client.ts';
import { admin, ADMIN, alive, descendants, killTree, ROOT, START, startService } from '../support/npm-start.ts';

// `npm start` as a person runs it: the whole service, the printed curl line, Ctrl-C.
describe('npm start', () => {
  let dataDir: string;
  let start: ChildProcess;
  let output = '';
  let port: number;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'ces-start-'));
    port = await findFreePort();
    const service = await startService({ PORT: String(port), WORKERS: '2', DATA_DIR: dataDir });
    start = service.process;
    output = service.output();
  });

  afterAll(async () => {
    if (start.exitCode === null) killTree(start);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says ready with two workers and prints a curl line that works when pasted', () => {
    expect(output, output).toMatch(/ready: API on https:\/\/localhost:\d+\/service-api\/1\.0 with 2 worker processes/);
    const curlLine = output.split('\n').find((line) => line.startsWith('curl '));
    expect(curlLine, output).toBeDefined();
    const result = spawnSync('sh', ['-c', `${curlLine} --silent --show-error`], { encoding: 'utf8', timeout: 30_000 });
    expect(result.status, result.stderr).toBe(0);
    const answer = JSON.parse(result.stdout);
    expect(answer.output.Base64EncodedText).toBe(Buffer.from('hello').toString('base64'));
    expect(answer.execution.status).toBe('SUCCESS');
  });

  it('keeps its certificate and demo account under the data folder, and names the operator', () => {
    expect(output).toContain(join(dataDir, 'tls'));
    expect(output).toMatch(/demo account "demo"/);
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo-accounts.json'), 'utf8'));
    expect(output).toContain(`operator (for /ops and /metrics): oncall / ${demo.operators[0].password}`);
    // Made just now: nothing to warn of yet.
    expect(output).not.toContain('may have changed them since');
  });

  it('writes the Redis it chose under the data folder, where the admin command line finds it', () => {
    // A free port, not 6379: the admin command line would otherwise read another Redis, or none.
    const started = /Redis started on (redis:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1];
    expect(started, output).toBeDefined();
    expect(readFileSync(join(dataDir, 'redis-url'), 'utf8').trim()).toBe(started);
    const listed = admin(['accounts', 'list', '--json'], { DATA_DIR: dataDir });
    expect(listed.status, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout).accounts.map((a: { account: string }) => a.account)).toEqual(['demo']);
    const operators = admin(['operators', 'list', '--json'], { DATA_DIR: dataDir });
    expect(operators.status, operators.stderr).toBe(0);
    expect(operators.stdout).toContain('oncall');
  });

  it('gives the demo user and the operator passwords of their own', () => {
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo-accounts.json'), 'utf8'));
    const user = demo.accounts[0].users[0].password as string;
    const operator = demo.operators[0].password as string;
    expect(user.length).toBeGreaterThanOrEqual(16);
    expect(operator.length).toBeGreaterThanOrEqual(16);
    expect(operator).not.toBe(user);
    expect(output).toContain(`user admin / ${user}`);
    expect(output).toContain(`oncall / ${operator}`);
    // The dashboard's address with the operator's credentials in it: a browser opens it without asking.
    expect(output).toMatch(new RegExp(`queue dashboard: https://oncall:${encodeURIComponent(operator)}@localhost:\\d+/ops/queues`));
  });

  it('makes the secrets key once under the data folder, for its owner only, shared by the API and workers', async () => {
    const keyFile = join(dataDir, 'secrets.key');
    expect(statSync(keyFile).mode & 0o077).toBe(0);
    expect(readFileSync(keyFile, 'utf8').trim()).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // A preset the API seals fills a run a worker opens.
    const demo = JSON.parse(readFileSync(join(dataDir, 'demo-accounts.json'), 'utf8'));
    const http = createHttpsClient(`https://127.0.0.1:${port}`, readFileSync(join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8'));
    const headers = {
      authorization: `Basic ${Buffer.from(`demo-app:${demo.accounts[0].apps[0].key}`).toString('base64')}`,
      'x-service-domain': '/demo/master',
      'content-type': 'application/json',
    };
    try {
      const put = await http.request('PUT', '/service-api/1.0/presets/greeting', {
        headers,
        body: JSON.stringify({ inputs: [{ name: 'Message', value: 'from a preset', secret: true }] }),
      });
      expect(put.status, put.text).toBe(201);
      const run = await http.request('POST', '/service-api/1.0/choreos/Library/Utilities/Development/Echo', {
        headers,
        body: JSON.stringify({ preset: 'greeting' }),
      });
      expect(run.status, run.text).toBe(200);
      expect(run.json().output.Message).toBe('from a preset');
      // `npm run admin` beside it finds the key as it finds the Redis: a preset it seals, a run opens.
      const put2 = spawnSync(process.execPath, [ADMIN, 'presets', 'put', 'demo', 'from-admin'], {
        cwd: ROOT,
        env: { ...process.env, REDIS_URL: '', REDIS_PREFIX: '', SECRETS_KEY: '', DATA_DIR: dataDir },
        input: JSON.stringify({ inputs: [{ name: 'Message', value: 'put by the admin command line', secret: true }] }),
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(put2.status, put2.stderr).toBe(0);
      const adminRun = await http.request('POST', '/service-api/1.0/choreos/Library/Utilities/Development/Echo', {
        headers,
        body: JSON.stringify({ preset: 'from-admin' }),
      });
      expect(adminRun.status, adminRun.text).toBe(200);
      expect(adminRun.json().output.Message).toBe('put by the admin command line');
    } finally {
      http.close();
    }
  });

  it('stops every process it started on SIGTERM', async () => {
    const children = descendants(must(start.pid));
    expect(children.length).toBeGreaterThanOrEqual(4); // redis-server, the API, two workers
    start.kill('SIGTERM');
    const [code] = await once(start, 'exit');
    expect(code).toBe(0);
    await waitFor(() => alive(children).length === 0, { timeoutMs: 15_000, what: 'every child to exit' });
    // Its Redis is gone: the admin command line says so, and fails, rather than read another.
    const after = admin(['accounts', 'list'], { DATA_DIR: dataDir });
    expect(after.status).toBe(1);
    expect(after.stderr).toMatch(/cannot reach Redis at redis:\/\/127\.0\.0\.1:\d+ \(written by npm start in .*redis-url\); is the service running\?/);
    expect(after.stdout).toBe('');
  });
});

// A worker may take its whole grace period to hand its runs back; npm start must wait for it.
describe('npm start stopping with a run in a long wait', () => {
  it('lets the worker hand the run back, though it takes longer than the API to stop', { timeout: 120_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ces-start-stop-'));
    const port = await findFreePort();
    // Waits are interrupted two seconds before the grace period ends: here after 36 s.
    const { process: start, output } = await startService({
      PORT: String(port),
      WORKERS: '1',
      DATA_DIR: dataDir,
      WORKER_SHUTDOWN_GRACE_SECONDS: '38',
      // A wait held in the worker, as a wait under the durable threshold is: the one a stop waits for.
      DURABLE_WAIT_THRESHOLD_MS: '86400000',
      LOG_LEVEL: 'info',
    });
    try {
      const demo = JSON.parse(readFileSync(join(dataDir, 'demo-accounts.json'), 'utf8'));
      const http = createHttpsClient(`https://127.0.0.1:${port}`, readFileSync(join(dataDir, 'tls', 'localhost-cert.pem'), 'utf8'));
      const headers = {
        authorization: `Basic ${Buffer.from(`demo-app:${demo.accounts[0].apps[0].key}`).toString('base64')}`,
        'x-service-domain': '/demo/master',
        'content-type': 'application/json',
      };
      const started = await http.request('POST', '/service-api/1.0/choreos/Library/Utilities/Development/Wait?mode=async', {
        headers,
        body: JSON.stringify({ inputs: [{ name: 'Milliseconds', value: '600000' }] }),
      });
      expect(started.status, started.text).toBe(202);
      const id = started.json().id as string;
      await waitFor(async () => (await http.request('GET', `/service-api/1.0/choreo-executions/${id}`, { headers })).json().execution.host !== '', {
        what: 'the worker to take the run',
      });
      http.close();

      start.kill('SIGTERM');
      const [code] = await once(start, 'exit');
      expect(code, output()).toBe(0);
      expect(output()).toMatch(new RegExp(`"executionId":"${id}".*"msg":"execution handed back"`));
    } finally {
      if (start.exitCode === null) killTree(start);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start with a worker variable that is wrong', () => {
  it('stops at once, the variable named, rather than restart the worker again and again', { timeout: 90_000 }, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ces-start-bad-'));
    try {
      const port = await findFreePort();
      const result = spawnSync(process.execPath, [START], {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          WORKERS: '1',
          DATA_DIR: dataDir,
          REDIS_URL: '',
          LOCAL_REDIS_PORT: '0',
          ACCOUNTS_FILE: '',
          WORKER_CONCURRENCY: '0',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status, result.stdout + result.stderr).toBe(1);
      expect(result.stderr).toMatch(/WORKER_CONCURRENCY:/);
      expect(result.stderr).toContain('[start] worker 1 refused its configuration');
      expect(result.stdout).not.toContain('restarting it');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('npm start without redis-server', () => {
  it('says how to install it and exits 1', () => {
    // A PATH with node alone: no redis-server to be found.
    const result = spawnSync(process.execPath, [START], {
      cwd: ROOT,
      env: { PATH: dirname(process.execPath), REDIS_URL: '' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/redis-server was not found on PATH/);
    expect(result.stderr).toMatch(/apt-get install redis-server/);
  });
});
