import { describe, expect, it } from 'vitest';
import { MAX_TEXT_LENGTH } from './arg-types.ts';
import { runStep } from './run-step-for-test.ts';

describe('hashing.checksum', () => {
  it('is the MD5 digest in hexadecimal by default', async () => {
    expect(await runStep('hashing.checksum', { text: 'hello' })).toEqual({ checksum: '5d41402abc4b2a76b9719d911017c592' });
    expect(await runStep('hashing.checksum', { text: 'hello', algorithm: '' })).toEqual({ checksum: '5d41402abc4b2a76b9719d911017c592' });
    expect(await runStep('hashing.checksum', { text: '' })).toEqual({ checksum: 'd41d8cd98f00b204e9800998ecf8427e' });
  });

  it('writes MD5 in Base64, and the FIX checksum, whatever the case of the algorithm', async () => {
    expect(await runStep('hashing.checksum', { text: 'hello', algorithm: 'md5+base64' })).toEqual({ checksum: 'XUFAKrxLKna5cZ2REBfFkg==' });
    // 8=FIX.4.4|9=5|35=0| with SOH separators: byte sum 931, modulo 256 = 163.
    expect(await runStep('hashing.checksum', { text: '8=FIX.4.4\u00019=5\u000135=0\u0001', algorithm: 'FIX44' })).toEqual({ checksum: '163' });
    expect(await runStep('hashing.checksum', { text: '\u0001', algorithm: 'FIX44' })).toEqual({ checksum: '001' });
    // UTF-8 bytes: é is C3 A9 (195 + 169 = 364, modulo 256 = 108).
    expect(await runStep('hashing.checksum', { text: 'é', algorithm: 'FIX44' })).toEqual({ checksum: '108' });
  });

  it('decodes Base64 first when asked, so that binary data can be summed', async () => {
    // "aGVsbG8=" is "hello"; "/w==" the single byte 255.
    expect(await runStep('hashing.checksum', { text: 'aGVsbG8=', base64Decode: '1' })).toEqual({ checksum: '5d41402abc4b2a76b9719d911017c592' });
    expect(await runStep('hashing.checksum', { text: '/w==', algorithm: 'FIX44', base64Decode: 'true' })).toEqual({ checksum: '255' });
    expect(await runStep('hashing.checksum', { text: 'aGVsbG8=', base64Decode: '0' })).toEqual({ checksum: '0733351879b2fa9bd05c7ca3061529c0' });
  });

  it('refuses an unknown algorithm, a bad flag and text that is not Base64', async () => {
    await expect(runStep('hashing.checksum', { text: 'a', algorithm: 'SHA1' })).rejects.toThrow(/MD5\+HEX, MD5\+BASE64, FIX44/);
    await expect(runStep('hashing.checksum', { text: 'a', base64Decode: 'yes' })).rejects.toThrow(/1 or 0/);
    await expect(runStep('hashing.checksum', { text: 'not base64!', base64Decode: '1' })).rejects.toMatchObject({
      name: 'InvalidStepInputError',
      message: 'the text is not valid Base64',
    });
  });

  it('sums the largest text', async () => {
    expect(await runStep('hashing.checksum', { text: '\u0001'.repeat(MAX_TEXT_LENGTH), algorithm: 'FIX44' })).toEqual({ checksum: '000' });
  });
});
