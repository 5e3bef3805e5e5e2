import { describe, expect, it } from 'vitest';
import { isValidChoreoPattern, mayAccessChoreo, matchesChoreoPattern } from './choreo-patterns.ts';

const BASE64_ENCODE = '/Library/Utilities/Encoding/Base64Encode';

describe('Choreo access patterns', () => {
  it('allow every Choreo with /**', () => {
    expect(matchesChoreoPattern('/**', BASE64_ENCODE)).toBe(true);
    expect(matchesChoreoPattern('/**', '/Top')).toBe(true);
  });

  it('match an exact id, however its slashes are written', () => {
    expect(matchesChoreoPattern(BASE64_ENCODE, BASE64_ENCODE)).toBe(true);
    expect(matchesChoreoPattern(`${BASE64_ENCODE}/`, BASE64_ENCODE)).toBe(true);
    expect(matchesChoreoPattern(BASE64_ENCODE, '/Library/Utilities/Encoding/Base64Decode')).toBe(false);
    expect(matchesChoreoPattern(BASE64_ENCODE, `${BASE64_ENCODE}/More`)).toBe(false);
  });

  it('match everything below a folder with **, and one segment with *', () => {
    expect(matchesChoreoPattern('/Library/Utilities/**', BASE64_ENCODE)).toBe(true);
    expect(matchesChoreoPattern('/Library/Utilities/**', '/Library/Other/Thing')).toBe(false);
    expect(matchesChoreoPattern('/Library/*/Encoding/Base64Encode', BASE64_ENCODE)).toBe(true);
    expect(matchesChoreoPattern('/Library/*/Base64Encode', BASE64_ENCODE)).toBe(false);
    expect(matchesChoreoPattern('/Library/Utilities/Encoding/Base64*', BASE64_ENCODE)).toBe(true);
    expect(matchesChoreoPattern('/Library/Utilities/Encoding/Hex*', BASE64_ENCODE)).toBe(false);
    expect(matchesChoreoPattern('/Library/**/Base64Encode', BASE64_ENCODE)).toBe(true);
  });

  it('take a Choreo as allowed when any one pattern matches', () => {
    expect(mayAccessChoreo(['/Library/Other/**', '/Library/Utilities/**'], BASE64_ENCODE)).toBe(true);
    expect(mayAccessChoreo(['/Library/Other/**'], BASE64_ENCODE)).toBe(false);
    expect(mayAccessChoreo([], BASE64_ENCODE)).toBe(false);
  });

  it('are refused when they could climb out of the library', () => {
    expect(isValidChoreoPattern('/Library/Utilities/**')).toBe(true);
    expect(isValidChoreoPattern('/Library/../Secret')).toBe(false);
    expect(isValidChoreoPattern('Library/Utilities')).toBe(false);
  });
});
