import type { ChoreoCase } from './choreo-case.ts';

// RFC 2202 and RFC 4231, test case 2; their hexadecimal digests, Base64-encoded.
const RFC_KEY = 'Jefe';
const RFC_TEXT = 'what do ya want for nothing?';
const family = 'Hashing';

export const cases: ChoreoCase[] = [
  { family, choreo: 'Checksum', name: 'MD5+HEX by default', inputs: { Text: 'hello' }, outputs: { Checksum: '5d41402abc4b2a76b9719d911017c592' } },
  { family, choreo: 'Checksum', name: 'of UTF-8 bytes', inputs: { Text: 'héllo' }, outputs: { Checksum: 'be50e8478cf24ff3595bc7307fb91b50' } },
  { family, choreo: 'Checksum', name: 'MD5+BASE64', inputs: { Text: 'hello', Algorithm: 'MD5+BASE64' }, outputs: { Checksum: 'XUFAKrxLKna5cZ2REBfFkg==' } },
  {
    family,
    choreo: 'Checksum',
    name: 'of Base64-decoded binary data',
    inputs: { Text: 'AP8Q', Base64DecodeValue: '1' },
    outputs: { Checksum: '481e4551ec039aada760901cf52b1917' },
  },
  { family, choreo: 'Checksum', name: 'FIX44', inputs: { Text: '8=FIX.4.4\u00019=5\u000135=0\u0001', Algorithm: 'FIX44' }, outputs: { Checksum: '163' } },
  {
    family,
    choreo: 'Checksum',
    name: 'FIX44 of a Base64-encoded message',
    // "8=FIX.4.4<SOH>9=5<SOH>35=0<SOH>": byte sum 931, modulo 256.
    inputs: { Text: 'OD1GSVguNC40ATk9NQEzNT0wAQ==', Algorithm: 'FIX44', Base64DecodeValue: '1' },
    outputs: { Checksum: '163' },
  },
  {
    family,
    choreo: 'Checksum',
    name: 'an unknown algorithm',
    inputs: { Text: 'a', Algorithm: 'CRC32' },
    error: /^checksum: invalid arguments: .*MD5\+HEX, MD5\+BASE64, FIX44/,
  },
  { family, choreo: 'HmacSHA1', inputs: { Key: RFC_KEY, Text: RFC_TEXT }, outputs: { HmacSignature: '7/zfauXrL6LSdBbV8YTfnCWafHk=' } },
  { family, choreo: 'HmacSHA256', inputs: { Key: RFC_KEY, Text: RFC_TEXT }, outputs: { HmacSignature: 'W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=' } },
  {
    family,
    choreo: 'HmacSHA256',
    name: 'an empty text and a Unicode key',
    inputs: { Key: 'clé', Text: '' },
    outputs: { HmacSignature: /^[A-Za-z0-9+/]{43}=$/ },
  },
  { family, choreo: 'HmacSHA256', name: 'missing key', inputs: { Text: RFC_TEXT }, error: /Key/ },

  // The service's own Hashing Choreos, which the SDK has no class for.
  {
    family,
    choreo: 'HMAC',
    inputs: { Text: RFC_TEXT, Key: RFC_KEY },
    outputs: { HMAC: '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843' },
    only: 'engine',
  },
  { family, choreo: 'MD5Hash', inputs: { Text: 'hello' }, outputs: { Hash: '5d41402abc4b2a76b9719d911017c592' }, only: 'engine' },
  { family, choreo: 'SHA1Hash', inputs: { Text: 'hello', Encoding: 'base64' }, outputs: { Hash: 'qvTGHdzF6KLavt4PO0gs2a6pQ00=' }, only: 'engine' },
  {
    family,
    choreo: 'SHA256Hash',
    inputs: { Text: 'hello' },
    outputs: { Hash: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824' },
    only: 'engine',
  },
  { family, choreo: 'SHA512Hash', inputs: { Text: '' }, outputs: { Hash: /^cf83e1357eefb8bd/ }, only: 'engine' },
];
