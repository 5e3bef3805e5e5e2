import { describe, expect, it } from 'vitest';
import { createSandbox } from '@ces/sandbox';
import { MAX_TEXT_LENGTH } from './arg-types.ts';
import { runStep, testLibraryOptions } from './run-step-for-test.ts';

describe('finding steps', () => {
  it('text.find-substring finds every occurrence, case-insensitive by default, positions from 1', async () => {
    expect(await runStep('text.find-substring', { text: 'Banana band', substring: 'BAN' })).toEqual({ positions: [1, 8], count: 2 });
    expect(await runStep('text.find-substring', { text: 'Banana band', substring: 'ban', caseSensitive: 'true' })).toEqual({ positions: [8], count: 1 });
    // Not overlapping, as a count of occurrences reads.
    expect(await runStep('text.find-substring', { text: 'aaaa', substring: 'aa' })).toEqual({ positions: [1, 3], count: 2 });
  });

  it('text.find-substring starts at StartNumber and counts positions over the whole text', async () => {
    expect(await runStep('text.find-substring', { text: 'abcabcabc', substring: 'abc', start: '4' })).toEqual({ positions: [4, 7], count: 2 });
    expect(await runStep('text.find-substring', { text: 'abc', substring: 'abc', start: '99' })).toEqual({ positions: [], count: 0 });
  });

  it('text.find-substring counts characters, not UTF-16 units, and takes pattern characters literally', async () => {
    expect(await runStep('text.find-substring', { text: '😀x😀x', substring: 'X' })).toEqual({ positions: [2, 4], count: 2 });
    expect(await runStep('text.find-substring', { text: 'ÉCOLE école', substring: 'école' })).toEqual({ positions: [1, 7], count: 2 });
    expect(await runStep('text.find-substring', { text: 'a.b*c(d)[e]', substring: '(d)[' })).toEqual({ positions: [6], count: 1 });
    expect(await runStep('text.find-substring', { text: 'x-y-z', substring: '-' })).toEqual({ positions: [2, 4], count: 2 });
    expect(await runStep('text.find-substring', { text: '', substring: 'a' })).toEqual({ positions: [], count: 0 });
  });

  it('text.find-substring refuses an empty substring and a bad start, and handles the largest text', async () => {
    await expect(runStep('text.find-substring', { text: 'abc', substring: '' })).rejects.toThrow(/substring to find is empty/);
    await expect(runStep('text.find-substring', { text: 'abc', substring: 'a', start: '0' })).rejects.toThrow();
    await expect(runStep('text.find-substring', { text: 'abc', substring: 'a', start: 'first' })).rejects.toThrow(/whole number/);
    const huge = `${'a'.repeat(MAX_TEXT_LENGTH - 3)}xyz`;
    expect(await runStep('text.find-substring', { text: huge, substring: 'XYZ' })).toEqual({ positions: [MAX_TEXT_LENGTH - 2], count: 1 });
  });

  it('text.regex-match returns the first match, or nothing', async () => {
    expect(await runStep('text.regex-match', { text: 'order 123, then 456', pattern: '\\d+' })).toEqual({ match: '123', found: true });
    expect(await runStep('text.regex-match', { text: 'no digits', pattern: '\\d+' })).toEqual({ match: '', found: false });
    expect(await runStep('text.regex-match', { text: 'Ünïcödé', pattern: '\\p{Lu}\\p{Ll}+', flags: 'u' })).toEqual({ match: 'Ünïcödé', found: true });
    expect(await runStep('text.regex-match', { text: '', pattern: 'a*' })).toEqual({ match: '', found: true });
  });

  it('text.regex-match refuses an invalid or empty pattern and the g flag', async () => {
    await expect(runStep('text.regex-match', { text: 'a', pattern: '(' })).rejects.toMatchObject({
      name: 'InvalidStepInputError',
      message: expect.stringMatching(/^the regular expression is not valid/),
    });
    await expect(runStep('text.regex-match', { text: 'a', pattern: '' })).rejects.toThrow(/empty/);
    await expect(runStep('text.regex-match', { text: 'a', pattern: 'a', flags: 'g' })).rejects.toThrow(/flags/);
  });

  it('text.regex-match stops a backtracking pattern in the sandbox', async () => {
    const options = { ...testLibraryOptions, sandbox: createSandbox({ timeLimitMs: 300, maxHeapMb: 64 }) };
    const hostile = runStep('text.regex-match', { text: `${'a'.repeat(40)}!`, pattern: '^(a+)+$' }, options);
    await expect(hostile).rejects.toMatchObject({ name: 'InvalidStepInputError', message: expect.stringMatching(/longer than 300 ms/) });
  });
});
