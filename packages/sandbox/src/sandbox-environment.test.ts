import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The children of a process, from /proc. */
function childrenOf(pid: number): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name, in parentheses, may hold spaces: the fields after it are fixed.
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid) found.push(Number(entry));
    } catch {
      // A process that ended while it was read.
    }
  }
  return found;
}

/** The environment a process started with, as the kernel keeps it. */
function environmentOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

// Sandbox processes evaluate tenants' patterns: they must not hold the worker's secrets, such as
// the password in REDIS_URL, even where a pattern found a way to read its own environment.
describe.skipIf(process.platform !== 'linux')('the environment of sandbox processes', () => {
  it("holds none of its parent's variables, REDIS_URL and its password among them", async () => {
    const sandboxModule = fileURLToPath(new URL('./sandbox.ts', import.meta.url));
    // A parent started as a worker is, with REDIS_URL; it runs one operation, then keeps its idle
    // sandbox process (kept 30 s) while this test reads that process's environment.
    const script = `
      import { createSandbox } from ${JSON.stringify(sandboxModule)};
      const sandbox = createSandbox({ idleProcesses: 1, maxRunning: 1 });
      process.send(await sandbox.regexReplace({ text: 'aaa', pattern: 'a', flags: 'g', replacement: 'b' }));
      setTimeout(() => {}, 60_000);
    `;
    const parent = spawn(process.execPath, ['--input-type=module', '--eval', script], {
      env: { REDIS_URL: 'redis://:parent-password@127.0.0.1:6379', CES_TEST_SECRET: 'parent-secret' },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    try {
      const [answer] = await once(parent, 'message');
      expect(answer).toBe('bbb');
      const pid = parent.pid ?? 0;
      // The parent has the variables: what follows would fail if the sandbox passed them on.
      expect(environmentOf(pid)).toMatchObject({ REDIS_URL: 'redis://:parent-password@127.0.0.1:6379', CES_TEST_SECRET: 'parent-secret' });
      const children = childrenOf(pid);
      expect(children).toHaveLength(1);
      const environment = environmentOf(children[0] ?? 0);
      expect(environment).not.toHaveProperty('REDIS_URL');
      expect(environment).not.toHaveProperty('CES_TEST_SECRET');
      expect(Object.values(environment).join('\n')).not.toMatch(/parent-password|parent-secret/);
      // Only what the sandbox gives (the compile cache), and what fork adds for the channel to the parent.
      expect(Object.keys(environment).filter((name) => !name.startsWith('NODE_CHANNEL_'))).toEqual(['NODE_COMPILE_CACHE']);
    } finally {
      parent.kill('SIGKILL');
    }
  }, 30_000);
});
