import { execFile, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { JSONPath } from 'jsonpath-plus';
import { describe, expect, it, vi } from 'vitest';
import { queryJson } from '@ces/formats';
import { createSandbox } from './sandbox.ts';

// 900 000 characters, each replaced by 40: V8 builds the 36 Mi-character result inside one call
// of String.prototype.replace, and a heap too small for it is a fatal error, not an exception.
const execFileAsync = promisify(execFile);

const outOfMemoryInOneCall = () => ({ text: 'a'.repeat(900_000), pattern: 'a', flags: 'g', replacement: '$&'.repeat(20) });

describe('sandbox', () => {
  it('fails an operation that runs out of memory inside one builtin, and carries on', async () => {
    // A time limit long enough for the heap to fill first, even on a slow machine.
    const sandbox = createSandbox({ timeLimitMs: 60_000 });
    await expect(sandbox.regexReplace(outOfMemoryInOneCall())).rejects.toMatchObject({
      name: 'InvalidStepInputError',
      retryable: false,
      message: 'the regular expression needed more memory than a step may use',
    });
    // This process is still here, and so is the sandbox.
    expect(await sandbox.regexReplace({ text: 'aaa', pattern: 'a', flags: 'g', replacement: 'b' })).toBe('bbb');
  }, 60_000);

  it('keeps a process that ran out of memory out of its parent: no output, and no wait to exit', async () => {
    const sandboxModule = fileURLToPath(new URL('./sandbox.ts', import.meta.url));
    const script = `
      import { createSandbox } from ${JSON.stringify(sandboxModule)};
      const sandbox = createSandbox({ timeLimitMs: 60_000 });
      const failure = await sandbox.regexReplace((${outOfMemoryInOneCall.toString()})()).catch((error) => error.message);
      const after = await sandbox.regexReplace({ text: 'aaa', pattern: 'a', flags: 'g', replacement: 'b' });
      process.send({ failure, after });
      // Nothing is left to do: the process ends now, unless the idle sandbox process (kept 30 s)
      // holds it open, which this timer, holding nothing itself, would then tell.
      setTimeout(() => process.send('still open'), 10_000).unref();
    `;
    const parent = spawn(process.execPath, ['--input-type=module', '--eval', script], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    let output = '';
    parent.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    parent.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const answers: unknown[] = [];
    parent.on('message', (answer) => answers.push(answer));
    const code = await new Promise((resolve) => parent.on('close', resolve));
    expect(answers).toEqual([{ failure: 'the regular expression needed more memory than a step may use', after: 'bbb' }]);
    // V8's report ("FATAL ERROR: … JavaScript heap out of memory") stays with the sandbox process.
    expect(output).toBe('');
    expect(code).toBe(0);
  }, 60_000);

  it('ends a process busy with an operation once its parent is killed outright', async () => {
    const sandboxModule = fileURLToPath(new URL('./sandbox.ts', import.meta.url));
    // Backtracks for longer than the test lasts; the parent reports its sandbox process, then waits.
    const script = `
      import { createSandbox } from ${JSON.stringify(sandboxModule)};
      const sandbox = createSandbox({ timeLimitMs: 600_000 });
      sandbox.regexReplace({ text: 'a'.repeat(40) + '!', pattern: '(a+)+$', flags: 'g', replacement: 'x' }).catch(() => {});
    `;
    const parent = spawn(process.execPath, ['--input-type=module', '--eval', script], { stdio: 'ignore' });
    const childOf = async (pid: number) => {
      const { stdout } = await execFileAsync('ps', ['-o', 'pid=', '--ppid', String(pid)]).catch(() => ({ stdout: '' }));
      return stdout
        .split('\n')
        .map((line) => Number(line.trim()))
        .find((child) => child > 0);
    };
    const sandboxPid = await vi.waitFor(async () => (await childOf(parent.pid ?? 0)) ?? Promise.reject(new Error('the sandbox process has not started')), {
      timeout: 20_000,
      interval: 50,
    });
    // Busy with the operation, not starting still: half a second of CPU and more (Linux's /proc).
    const cpuTicks = async () => {
      const [, afterName = ''] = (await readFile(`/proc/${sandboxPid}/stat`, 'utf8')).split(') ');
      const fields = afterName.split(' ');
      return Number(fields[11]) + Number(fields[12]);
    };
    await expect.poll(cpuTicks, { timeout: 30_000, interval: 100, message: 'the sandbox process to be busy' }).toBeGreaterThan(50);
    parent.kill('SIGKILL');
    const alive = () => {
      try {
        process.kill(sandboxPid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await expect.poll(alive, { timeout: 20_000, interval: 100, message: 'the orphaned sandbox process to end' }).toBe(false);
  }, 60_000);

  it('runs no more operations at once than it may; the others wait their turn, or their cancellation', async () => {
    const sandbox = createSandbox({ maxRunning: 1, timeLimitMs: 60_000 });
    const sandboxChildren = async () => {
      const { stdout } = await execFileAsync('ps', ['-o', 'pid=,args=', '--ppid', String(process.pid)]).catch(() => ({ stdout: '' }));
      return new Set(
        stdout
          .split('\n')
          .filter((line) => line.includes('sandbox-process'))
          .map((line) => Number(line.trim().split(' ')[0])),
      );
    };
    const before = await sandboxChildren();
    const started = async () => [...(await sandboxChildren())].filter((pid) => !before.has(pid)).length;

    const first = new AbortController();
    const busy = sandbox.regexReplace({ text: `${'a'.repeat(40)}!`, pattern: '(a+)+$', flags: 'g', replacement: 'x' }, first.signal);
    await expect.poll(started, { timeout: 10_000, interval: 20, message: 'the first operation to start' }).toBe(1);
    const waiting = new AbortController();
    const gaveUp = sandbox.regexReplace({ text: 'aaa', pattern: 'a', flags: 'g', replacement: 'b' }, waiting.signal);
    const next = sandbox.regexReplace({ text: 'aaa', pattern: 'a', flags: 'g', replacement: 'c' });
    await new Promise((resolve) => setImmediate(resolve));
    // Still the first alone: the others wait, and no process is started for them yet.
    expect(await started()).toBe(1);
    waiting.abort('cancelled');
    await expect(gaveUp).rejects.toMatchObject({ name: 'StepAbortedError' });
    first.abort('cancelled');
    await expect(busy).rejects.toMatchObject({ name: 'StepAbortedError' });
    // The turn goes to the one still waiting, past the one that gave up.
    expect(await next).toBe('ccc');
  }, 60_000);

  it('outlives processes that run out of memory after their time limit stopped them', async () => {
    // `$..*..*` on documents a few hundred levels deep takes about as long to fill 64 MiB as the
    // limit allows: some processes are stopped for time, others fail for memory.
    const sandbox = createSandbox({ timeLimitMs: 300, maxResultLength: 1000, maxHeapMb: 64 });
    for (let depth = 300; depth < 384; depth += 7) {
      const json = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      await expect(sandbox.queryJson({ json, path: '$..*..*' })).rejects.toThrow(/ran longer than 300 ms|needed more memory/);
    }
    expect(await sandbox.queryJson({ json: '{"a":[1,2]}', path: '$.a[1]' })).toEqual({ result: '2', count: 1 });
  }, 60_000);

  it('answers paths named like built-in properties', async () => {
    const sandbox = createSandbox();
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const answer = await sandbox.queryJson({ json: JSON.stringify({ [name]: 'x' }), path: name });
      expect(answer.count, name).toBeLessThanOrEqual(1);
    }
  });
});

describe('JSONPath queries', () => {
  it('do not remember every path they were given', () => {
    for (let i = 0; i < 100; i += 1) queryJson({ a: i }, `$.a${' '.repeat(i)}`);
    expect(Object.keys(JSONPath.cache).length).toBeLessThanOrEqual(1);
  });
});
