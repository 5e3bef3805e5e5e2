import { spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_EXIT_CODE } from '@ces/config';
import { isolatedPrefix } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

function start(entry: 'api' | 'worker', env: Record<string, string>) {
  return spawnSync(process.execPath, [`${ROOT}apps/${entry}/src/main.ts`], {
    env: { PATH: process.env.PATH ?? '', ...env },
    encoding: 'utf8',
    timeout: 20_000,
  });
}

// A bad value must stop the process before it touches anything, naming the variable.
describe('processes refuse a bad configuration', () => {
  it('the API names each bad variable and exits with the configuration status', () => {
    const result = start('api', { RETENTION_SECONDS: '60', PORT: 'eighty', TRUST_PROXY: 'perhaps' });
    expect(result.status).toBe(CONFIG_EXIT_CODE);
    expect(result.stderr).toMatch(/RETENTION_SECONDS: must be at least 300/);
    expect(result.stderr).toMatch(/PORT:/);
    expect(result.stderr).toMatch(/TRUST_PROXY:/);
  });

  it('a worker names a bad concurrency and a bad Redis URL and exits with the configuration status', () => {
    const result = start('worker', { WORKER_CONCURRENCY: '0', REDIS_URL: 'http://localhost' });
    expect(result.status).toBe(CONFIG_EXIT_CODE);
    expect(result.stderr).toMatch(/WORKER_CONCURRENCY:/);
    expect(result.stderr).toMatch(/REDIS_URL:/);
  });
});

// Values that parse but do not work stop the process at start the same way, naming the variable.
describe('processes refuse a value that does not work', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ces-startup-'));
  let taken: Server;
  let takenPort = 0;
  const common = () => ({ REDIS_URL: inject('redisUrl'), REDIS_PREFIX: isolatedPrefix('startup'), DATA_DIR: dataDir, BIND_ADDRESS: '127.0.0.1', PORT: '0' });

  beforeAll(async () => {
    taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    takenPort = (taken.address() as AddressInfo).port;
  });

  afterAll(() => {
    taken.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it.each([
    ['CHOREOS_DIR', { CHOREOS_DIR: '/nonexistent-catalogue' }],
    ['TLS_CERT_FILE, TLS_KEY_FILE', { TLS_CERT_FILE: '/nonexistent-cert.pem', TLS_KEY_FILE: '/nonexistent-key.pem' }],
    ['BIND_ADDRESS', { BIND_ADDRESS: '999.1.1.1' }],
    [
      'PORT',
      {
        get PORT() {
          return String(takenPort);
        },
      },
    ],
  ])('the API names %s', (variable, env) => {
    const result = start('api', { ...common(), ...env });
    expect(result.status, result.stdout + result.stderr).toBe(CONFIG_EXIT_CODE);
    expect(result.stdout).toContain(`invalid configuration:\\n  ${variable}: `);
  });

  it('a worker names WORKER_HEALTH_PORT when the port is taken', () => {
    const result = start('worker', { ...common(), WORKER_HEALTH_PORT: String(takenPort) });
    expect(result.status, result.stdout + result.stderr).toBe(CONFIG_EXIT_CODE);
    expect(result.stdout).toContain('invalid configuration:\\n  WORKER_HEALTH_PORT: ');
    expect(result.stdout).toContain('EADDRINUSE');
  });
});
