import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
  it('the API names each bad variable and exits 1', () => {
    const result = start('api', { RETENTION_SECONDS: '60', PORT: 'eighty', TRUST_PROXY: 'perhaps' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/RETENTION_SECONDS: must be at least 300/);
    expect(result.stderr).toMatch(/PORT:/);
    expect(result.stderr).toMatch(/TRUST_PROXY:/);
  });

  it('a worker names a bad concurrency and a bad Redis URL and exits 1', () => {
    const result = start('worker', { WORKER_CONCURRENCY: '0', REDIS_URL: 'http://localhost' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/WORKER_CONCURRENCY:/);
    expect(result.stderr).toMatch(/REDIS_URL:/);
  });
});
