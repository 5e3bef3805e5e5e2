import { describe, expect, it } from 'vitest';
import { createSandbox } from '@ces/sandbox';
import { runStep, testLibraryOptions } from './run-step-for-test.ts';
import { MAX_TEXT_LENGTH } from './arg-types.ts';
import { MAX_REGEX_TEXT_LENGTH } from './text.ts';

describe('text steps', () => {
  it('text.template returns its rendered text', async () => {
    expect(await runStep('text.template', { text: 'Hello' })).toEqual({ text: 'Hello' });
  });

  it('text.regex-replace replaces with groups and flags', async () => {
    expect(await runStep('text.regex-replace', { text: 'John Smith', pattern: '(\\w+) (\\w+)', replacement: '$2, $1' })).toEqual({ text: 'Smith, John' });
    expect(await runStep('text.regex-replace', { text: 'a A a', pattern: 'a', replacement: 'b', flags: 'gi' })).toEqual({ text: 'b b b' });
    expect(await runStep('text.regex-replace', { text: 'a a', pattern: 'a', replacement: 'b', flags: '' })).toEqual({ text: 'b a' });
  });

  it('text.regex-replace stops a backtracking pattern without holding the event loop', async () => {
    const options = { ...testLibraryOptions, sandbox: createSandbox({ timeLimitMs: 300, maxResultLength: 1000, maxHeapMb: 64 }) };
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    try {
      // Exponential in the text's length: hours for 40 characters, were it not stopped.
      const hostile = runStep('text.regex-replace', { text: `${'a'.repeat(40)}!`, pattern: '(a+)+$', replacement: 'x' }, options);
      await expect(hostile).rejects.toMatchObject({ name: 'InvalidStepInputError', retryable: false, message: expect.stringMatching(/longer than 300 ms/) });
    } finally {
      clearInterval(ticker);
    }
    // The worker's own timers kept running meanwhile (a tick every 10 ms over 300 ms).
    expect(ticks).toBeGreaterThan(10);
    // And the next replacement is served as usual.
    expect(await runStep('text.regex-replace', { text: 'aaa', pattern: 'a', replacement: 'b' }, options)).toEqual({ text: 'bbb' });
  });

  it('text.regex-replace stops when its run is cancelled, and refuses a result too long', async () => {
    const options = { ...testLibraryOptions, sandbox: createSandbox({ timeLimitMs: 60_000, maxResultLength: 1000, maxHeapMb: 64 }) };
    const cancel = new AbortController();
    const running = runStep('text.regex-replace', { text: `${'a'.repeat(40)}!`, pattern: '(a+)+$' }, options, cancel.signal);
    setImmediate(() => cancel.abort('cancelled'));
    await expect(running).rejects.toMatchObject({ name: 'StepAbortedError' });
    await expect(runStep('text.regex-replace', { text: 'a'.repeat(100), pattern: 'a', replacement: 'b'.repeat(20) }, options)).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/2000 characters, more than 1000/),
    });
  });

  it('text.regex-replace refuses bad patterns and oversized input', async () => {
    await expect(runStep('text.regex-replace', { text: 'x', pattern: '(' })).rejects.toMatchObject({ retryable: false });
    await expect(runStep('text.regex-replace', { text: 'x'.repeat(MAX_REGEX_TEXT_LENGTH + 1), pattern: 'x' })).rejects.toThrow();
    await expect(runStep('text.regex-replace', { text: 'x', pattern: 'x', flags: 'gg' })).rejects.toThrow();
  });

  it('text.split splits, trims, drops empty items and limits', async () => {
    expect(await runStep('text.split', { text: ' a, b,,c ', separator: ',', trim: 'true', removeEmpty: 'true' })).toEqual({ items: ['a', 'b', 'c'], count: 3 });
    expect(await runStep('text.split', { text: 'l1\r\nl2\nl3', separator: '\n', limit: '2' })).toEqual({ items: ['l1', 'l2'], count: 2 });
  });

  it.each([
    ['upper', 'HELLO WORLD-WIDE'],
    ['lower', 'hello world-wide'],
    ['title', 'Hello World-Wide'],
  ])('text.case %s', async (caseName, expected) => {
    expect(await runStep('text.case', { text: 'hello wORLD-wide', case: caseName })).toEqual({ text: expected });
  });

  it('text.case title-cases letters of any script after any word boundary', async () => {
    expect(await runStep('text.case', { text: '"élan" (ǆemal) x_y/z ΣΊΣΥΦΟΣ 😀a', case: 'title' })).toEqual({ text: '"Élan" (Ǆemal) X_Y/Z Σίσυφος 😀a' });
  });

  it("text.case title-cases megabytes off the worker's own thread, which keeps its timers running", async () => {
    // Half a second of work on the worker's thread would hold every other run meanwhile.
    const words = 'lorem ipsum-dolor sit_amet '.repeat(180_000);
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    let before = 0;
    let result: { text: string };
    try {
      await new Promise((resolve) => setTimeout(resolve, 0));
      before = ticks;
      result = (await runStep('text.case', { text: words, case: 'title' })) as { text: string };
    } finally {
      clearInterval(ticker);
    }
    expect(result.text.slice(0, 54)).toBe('Lorem Ipsum-Dolor Sit_Amet Lorem Ipsum-Dolor Sit_Amet ');
    expect(result.text).toHaveLength(words.length);
    expect(ticks - before).toBeGreaterThan(3);
  });

  it('text.case title-cases the longest text of the shortest words within the sandbox heap', async () => {
    const words = 'a '.repeat(MAX_TEXT_LENGTH / 2);
    const { text } = (await runStep('text.case', { text: words, case: 'title' })) as { text: string };
    expect(text).toBe('A '.repeat(MAX_TEXT_LENGTH / 2));
  });

  it('text.case title decides each word across the pieces it is worked in', async () => {
    // Words straddling every piece boundary, letters outside the BMP (Deseret has case) among them.
    const sample = 'ab-cd 𐐨x "ef" ǆg (hi) ';
    const text = sample.repeat(Math.ceil((3 * 64 * 1024) / sample.length));
    const whole = text.toLowerCase().replace(/(^|[\s\-_/([{"'])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase());
    expect(((await runStep('text.case', { text, case: 'title' })) as { text: string }).text).toBe(whole);
  });

  it('text.case title stops when its run is cancelled', async () => {
    const cancel = new AbortController();
    const running = runStep('text.case', { text: 'word '.repeat(1_000_000), case: 'title' }, testLibraryOptions, cancel.signal);
    setImmediate(() => cancel.abort('cancelled'));
    await expect(running).rejects.toMatchObject({ name: 'StepAbortedError' });
  });

  it('text.length counts code points and bytes', async () => {
    expect(await runStep('text.length', { text: 'é😀' })).toEqual({ characters: 2, bytes: 6 });
    // A lone surrogate is a code point of its own, as the string's iterator counts it.
    for (const text of ['\ud83d', '\ude00', 'a\ud83d', '\ude00\ud83d', '😀😀\ud83d😀', '']) {
      expect(await runStep('text.length', { text }), JSON.stringify(text)).toMatchObject({ characters: [...text].length });
    }
  });
});
