import type { SdkCase } from '../../support/sdk-case.ts';

// RFC 2202 and RFC 4231, test case 2: their hexadecimal digests, Base64-encoded.
const RFC_KEY = 'Jefe';
const RFC_TEXT = 'what do ya want for nothing?';

export const cases: SdkCase[] = [
  { family: 'Hashing', choreo: 'Checksum', name: 'MD5+HEX by default', inputs: { Text: 'hello' }, expect: { Checksum: '5d41402abc4b2a76b9719d911017c592' } },
  {
    family: 'Hashing',
    choreo: 'Checksum',
    name: 'MD5+BASE64',
    inputs: { Text: 'hello', Algorithm: 'MD5+BASE64' },
    expect: { Checksum: 'XUFAKrxLKna5cZ2REBfFkg==' },
  },
  {
    family: 'Hashing',
    choreo: 'Checksum',
    name: 'FIX44 of a Base64-encoded message',
    // "8=FIX.4.4<SOH>9=5<SOH>35=0<SOH>": byte sum 931, modulo 256.
    inputs: { Text: 'OD1GSVguNC40ATk9NQEzNT0wAQ==', Algorithm: 'FIX44', Base64DecodeValue: '1' },
    expect: { Checksum: '163' },
  },
  { family: 'Hashing', choreo: 'HmacSHA1', inputs: { Key: RFC_KEY, Text: RFC_TEXT }, expect: { HmacSignature: '7/zfauXrL6LSdBbV8YTfnCWafHk=' } },
  {
    family: 'Hashing',
    choreo: 'HmacSHA256',
    inputs: { Key: RFC_KEY, Text: RFC_TEXT },
    expect: { HmacSignature: 'W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=' },
  },
  { family: 'Hashing', choreo: 'HmacSHA256', name: 'missing key', inputs: { Text: RFC_TEXT }, error: /Key/ },
];
