import { describe, expect, it } from 'vitest';
import { MAX_TEXT_LENGTH } from './arg-types.ts';
import { runStep } from './run-step-for-test.ts';
import { MAX_SUBSTITUTED_LENGTH } from './text-edits.ts';

describe('text edit steps', () => {
  it('text.substitute replaces every occurrence literally', async () => {
    expect(await runStep('text.substitute', { text: 'a.b.c', old: '.', new: '$&-' })).toEqual({ text: 'a$&-b$&-c', count: 2 });
    expect(await runStep('text.substitute', { text: 'héllo wörld', old: 'ö', new: 'o' })).toEqual({ text: 'héllo world', count: 1 });
    expect(await runStep('text.substitute', { text: 'abc', old: 'x', new: 'y' })).toEqual({ text: 'abc', count: 0 });
    expect(await runStep('text.substitute', { text: '', old: 'x', new: 'y' })).toEqual({ text: '', count: 0 });
    expect(await runStep('text.substitute', { text: 'aaa', old: 'a', new: '' })).toEqual({ text: '', count: 3 });
  });

  it('text.substitute refuses an empty old text and a result past its limit', async () => {
    await expect(runStep('text.substitute', { text: 'abc', old: '', new: 'y' })).rejects.toThrow(/text to replace is empty/);
    const growing = runStep('text.substitute', { text: 'a'.repeat(MAX_TEXT_LENGTH), old: 'a', new: 'bcdef' });
    await expect(growing).rejects.toMatchObject({ name: 'InvalidStepInputError', message: expect.stringContaining(`more than ${MAX_SUBSTITUTED_LENGTH}`) });
  });

  it('text.remove-line-breaks removes line breaks and tabs, then trims', async () => {
    expect(await runStep('text.remove-line-breaks', { text: '  <a>\r\n\t<b>x y</b>\n</a>\n' })).toEqual({ text: '<a><b>x y</b></a>' });
    expect(await runStep('text.remove-line-breaks', { text: 'ça\nva 😀\t!' })).toEqual({ text: 'çava 😀!' });
    expect(await runStep('text.remove-line-breaks', { text: '' })).toEqual({ text: '' });
    expect(await runStep('text.remove-line-breaks', { text: '\n\t \n' })).toEqual({ text: '' });
    const lines = Math.floor(MAX_TEXT_LENGTH / 3);
    expect(((await runStep('text.remove-line-breaks', { text: 'ab\n'.repeat(lines) })) as { text: string }).text).toHaveLength(lines * 2);
  });
});
