import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

describe('encoding.form-url-encode', () => {
  it('encodes as an HTML form does', async () => {
    expect(await runStep('encoding.form-url-encode', { text: 'a b&c=d' })).toEqual({ text: 'a+b%26c%3Dd' });
    expect(await runStep('encoding.form-url-encode', { text: "Az09.-*_!'()~+/" })).toEqual({ text: 'Az09.-*_%21%27%28%29%7E%2B%2F' });
    expect(await runStep('encoding.form-url-encode', { text: 'é€😀' })).toEqual({ text: '%C3%A9%E2%82%AC%F0%9F%98%80' });
    expect(await runStep('encoding.form-url-encode', { text: '' })).toEqual({ text: '' });
  });

  it('refuses text that is not valid Unicode', async () => {
    await expect(runStep('encoding.form-url-encode', { text: 'a\ud800b' })).rejects.toMatchObject({
      name: 'InvalidStepInputError',
      message: expect.stringMatching(/lone surrogate/),
    });
  });
});
