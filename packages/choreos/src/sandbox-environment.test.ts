import { readdirSync, readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createSandbox } from './sandbox.ts';

/** The processes this one started that run the sandbox's entry, from /proc. */
function sandboxChildren(): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name, in parentheses, may hold spaces: the fields after it are fixed.
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent !== process.pid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('sandbox-process')) found.push(Number(entry));
    } catch {
      // A process that ended while it was read.
    }
  }
  return found;
}

/** The environment a process started with, as the kernel kept it. */
function environmentOf(pid: number): Record<string, string> {
  const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
  return Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

// Sandbox processes evaluate tenants' patterns: they must not hold the worker's secrets, such as
// the password in REDIS_URL, even where a pattern found a way to read its own environment.
describe.skipIf(process.platform !== 'linux')('the environment of sandbox processes', () => {
  const saved = { REDIS_URL: process.env.REDIS_URL, CES_TEST_SECRET: process.env.CES_TEST_SECRET };

  afterEach(() => {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  });

  it("holds none of the parent's variables, REDIS_URL and its password among them", async () => {
    process.env.REDIS_URL = 'redis://:parent-password@127.0.0.1:6379';
    process.env.CES_TEST_SECRET = 'parent-secret';
    const before = new Set(sandboxChildren());
    // A sandbox of its own: its first operation starts a new process, after the variables were set.
    const sandbox = createSandbox({ idleProcesses: 1, maxRunning: 1 });
    expect(await sandbox.regexReplace({ text: 'aaa', pattern: 'a', flags: 'g', replacement: 'b' })).toBe('bbb');
    // Kept idle for the next operation: still running, so its environment can be read.
    const started = sandboxChildren().filter((pid) => !before.has(pid));
    expect(started).toHaveLength(1);
    const environment = environmentOf(started[0] ?? 0);
    // What the sandbox does give it: proof that this is the environment of the right process.
    expect(Object.keys(environment)).toContain('NODE_COMPILE_CACHE');
    expect(environment).not.toHaveProperty('REDIS_URL');
    expect(environment).not.toHaveProperty('CES_TEST_SECRET');
    expect(Object.values(environment).join('\n')).not.toMatch(/parent-password|parent-secret/);
    // Nothing else of the parent either (not its PATH, not its HOME): only what fork adds for the
    // channel to its parent.
    expect(Object.keys(environment).filter((name) => !name.startsWith('NODE_CHANNEL_'))).toEqual(['NODE_COMPILE_CACHE']);
  });
});
