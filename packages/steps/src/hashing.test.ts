import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

describe('hashing steps', () => {
  it.each([
    ['md5', 'hex', '5d41402abc4b2a76b9719d911017c592'],
    ['sha1', 'hex', 'aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d'],
    ['sha256', 'hex', '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824'],
    ['sha256', 'base64', 'LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ='],
    ['sha512', 'hex', '9b71d224bd62f3785d96d46ad3ea3d73319bfbc2890caadae2dff72519673ca72323c3d99ba5c11d7c7acc6e14b8c5da0c4663475c2e5c3adef46f73bcdec043'],
  ])('hashes "hello" with %s as %s', async (algorithm, encoding, digest) => {
    expect(await runStep('hashing.hash', { text: 'hello', algorithm, encoding })).toEqual({ digest });
  });

  it('computes an HMAC (RFC 4231 test case 2)', async () => {
    expect(await runStep('hashing.hmac', { text: 'what do ya want for nothing?', key: 'Jefe', algorithm: 'sha256' })).toEqual({
      digest: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    });
  });

  it('refuses an unknown algorithm', async () => {
    await expect(runStep('hashing.hash', { text: 'x', algorithm: 'crc32' })).rejects.toThrow();
  });
});
