import { describe, expect, it } from 'vitest';
import { maskValues } from './sealed-error-mask.ts';

describe('masking sealed values in an error', () => {
  it('masks whole values and the parts of them a message quotes, and leaves the rest', () => {
    expect(maskValues('bad key "k-secret-123" given', ['k-secret-123'])).toBe('bad key "********" given');
    expect(maskValues(`Unexpected token 'p', "preset-sec"... is not valid JSON`, ['preset-secret-6f1e2a9d44'])).toBe(
      `Unexpected token 'p', "********"... is not valid JSON`,
    );
    expect(maskValues('unknown algorithm md5', ['md5', 'sha512'])).toBe('unknown algorithm ********');
    // Short values, and short runs of long ones, are not worth a mask.
    expect(maskValues('step 1 failed: timed out', ['1', 'timed-out-value'])).toBe('step 1 failed: timed out');
    expect(maskValues('nothing here', [])).toBe('nothing here');
  });
});
