import { describe, expect, it } from 'vitest';
import { InvalidStepInputError, isRetryable, parseDefinition } from '@ces/language';
import { createSandbox, DEFAULT_CODE_LIMITS } from '@ces/sandbox';
import { createStepLibrary } from './step-library.ts';
import { runStep, testLibraryOptions } from './run-step-for-test.ts';

// One sandbox for the file, as a worker has one: its processes, and their QuickJS, stay warm between runs.
const sandbox = createSandbox({ code: { ...DEFAULT_CODE_LIMITS, timeLimitMs: 200, memoryLimitBytes: 16 * 1024 * 1024, maxResultChars: 10_000 } });
const options = { ...testLibraryOptions, sandbox };
const run = (code: string, input: unknown) => sandbox.runCode({ code, input });
// Time enough for a memory limit to be met first, even on a busy machine.
const roomySandbox = createSandbox({ code: { ...DEFAULT_CODE_LIMITS, timeLimitMs: 10_000, memoryLimitBytes: 16 * 1024 * 1024 } });
const orders = [
  { id: 'a', customer: 'Zoe', amount: 5 },
  { id: 'b', customer: 'Adam', amount: 12.5 },
  { id: 'c', customer: 'Zoe', amount: 3 },
];

async function failureOf(code: string, input: unknown = null, where = sandbox): Promise<InvalidStepInputError> {
  const error = await where.runCode({ code, input }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof InvalidStepInputError)) throw new Error(`expected an InvalidStepInputError, got ${String(error)}`);
  return error;
}

describe('code.javascript', () => {
  it('runs a small function on its input and returns its result as data', async () => {
    const code = `
      const customers = [...new Set(input.orders.map((order) => order.customer))].sort();
      const largest = input.orders.reduce((best, order) => (order.amount > best.amount ? order : best));
      return { total: input.orders.reduce((sum, order) => sum + order.amount, 0), customers, largest: largest.id };`;
    expect(await runStep('code.javascript', { code, input: { orders } }, options)).toEqual({ total: 20.5, customers: ['Adam', 'Zoe'], largest: 'b' });
  });

  it('returns any JSON value, and null for nothing', async () => {
    expect(await run('return input * 2', 21)).toBe(42);
    expect(await run('return "text"', null)).toBe('text');
    expect(await run('const x = 1;', null)).toBeNull();
    expect(await run('return () => 1', null)).toBeNull();
    expect(await runStep('code.javascript', { code: 'return input' }, options)).toBeNull();
  });

  it('starts every run afresh: nothing one run leaves behind reaches the next', async () => {
    await run('globalThis.leftover = 1; Object.prototype.polluted = true; return 1', null);
    expect(await run('return [typeof leftover, ({}).polluted === undefined]', null)).toEqual(['undefined', true]);
  });

  it('gives no network, files, timers, clock or randomness', async () => {
    expect(
      await run(
        'return [typeof fetch, typeof require, typeof process, typeof setTimeout, typeof Date, typeof Promise, typeof std, typeof os, typeof SharedArrayBuffer]',
        null,
      ),
    ).toEqual(Array(9).fill('undefined'));
    expect((await failureOf('return Math.random()')).message).toMatch(/the code failed: Error: Math.random is not available in a code step/);
  });

  it('stops an infinite loop at its time limit, and the sandbox keeps serving', async () => {
    const error = await failureOf('while (true) {}');
    expect(error.message).toBe('the code failed: ran past its time limit of 200 ms');
    expect(isRetryable(error)).toBe(false);
    expect(await run('return input + 1', 1)).toBe(2);
  });

  it('stops a memory bomb at its memory limit', async () => {
    expect((await failureOf('return "x".repeat(1e8).length', null, roomySandbox)).message).toBe('the code failed: used more than 16 MiB of memory');
    // Growing step by step, QuickJS collects garbage ever more often near its limit: whichever
    // limit comes first, the step fails and the sandbox serves on.
    const error = await failureOf('const chunks = []; for (;;) chunks.push(new Array(10000).fill(chunks.length));');
    expect(error.message).toMatch(
      /^(the code failed: used more than 16 MiB of memory|the code failed: ran past its time limit of 200 ms|the code ran longer than 450 ms)$/,
    );
    expect(await run('return input + 1', 1)).toBe(2);
  });

  it('kills the process of a built-in call that runs on past the time limit', async () => {
    // QuickJS checks its interrupt between instructions; a join near the memory limit goes on for seconds.
    const error = await failureOf('return new Array(1e8).join("x").length');
    expect(error.message).toMatch(/^(the code ran longer than 450 ms|the code failed: used more than 16 MiB of memory)$/);
    expect(await run('return input + 1', 1)).toBe(2);
  });

  it('refuses an input larger than its memory', async () => {
    const error = await failureOf('return input.length', 'x'.repeat(20 * 1024 * 1024), roomySandbox);
    expect(error.message).toMatch(/^the input could not be given to the code: used more than 16 MiB of memory$/);
  });

  it('stops a runaway recursion at its stack limit', async () => {
    expect((await failureOf('function down(n) { return down(n + 1) + 1 } return down(0)')).message).toMatch(
      /^the code failed: overflowed its stack of 256 KiB$/,
    );
    expect(await run('return input + 1', 1)).toBe(2);
  });

  it('refuses a result longer than its limit', async () => {
    expect((await failureOf('return "x".repeat(20000)')).message).toBe('the result is longer than 10000 characters of JSON');
    expect((await failureOf('return Array.from({ length: 5000 }, (_, i) => i)')).message).toMatch(/longer than 10000/);
  });

  it('reports a syntax error with its line', async () => {
    expect((await failureOf('const a = 1;\nreturn (;')).message).toMatch(/^the code does not compile: SyntaxError: .+ \(line 2/);
  });

  it('reports what the code threw, with its line', async () => {
    expect((await failureOf('const a = 1;\nthrow new TypeError("bad order " + input)', 7)).message).toBe(
      'the code failed: TypeError: bad order 7 (line 2, column 20)',
    );
    expect((await failureOf('throw "plain"')).message).toBe('the code failed: threw "plain"');
    expect((await failureOf('return input.missing.field', {})).message).toMatch(/^the code failed: TypeError: .*\(line 1, column \d+\)$/);
  });

  it('reports a result that is not JSON', async () => {
    expect((await failureOf('const a = {}; a.self = a; return a')).message).toMatch(/^the result is not JSON: TypeError: circular reference/);
    expect((await failureOf('return 10n')).message).toMatch(/^the result is not JSON: TypeError/);
  });

  it('cannot reach the JSON functions the sandbox uses', async () => {
    expect(await run('JSON.stringify = () => "{}"; JSON.parse = () => 1; return { kept: true }', null)).toEqual({ kept: true });
  });

  it('stops a catastrophic regular expression at its time limit', async () => {
    expect((await failureOf('return /(a+)+$/.test("a".repeat(40) + "!")')).message).toBe('the code failed: ran past its time limit of 200 ms');
  });

  it('refuses a syntax error in literal code when the catalogue loads', () => {
    const result = parseDefinition(
      { description: 'Broken.', steps: [{ id: 'broken', kind: 'code.javascript', args: { code: 'const a = 1;\nreturn (;' } }] },
      createStepLibrary(options),
    );
    expect(result).toMatchObject({
      ok: false,
      problems: [expect.stringMatching(/^steps\[0\] \(broken\) args\.code: the code does not compile: SyntaxError: Unexpected token/)],
      located: [{ pointer: '/steps/0/args/code', message: expect.stringMatching(/^the code does not compile: /) }],
    });
    const fine = parseDefinition(
      { description: 'Fine.', steps: [{ id: 'fine', kind: 'code.javascript', args: { code: 'return input' } }] },
      createStepLibrary(options),
    );
    expect(fine.ok).toBe(true);
  });

  it('validates its arguments', async () => {
    await expect(runStep('code.javascript', { code: '' }, options)).rejects.toThrow();
    await expect(runStep('code.javascript', { code: 'return 1', other: 1 }, options)).rejects.toThrow();
  });
});
