import { expect } from 'vitest';

/** A run of a catalogue Choreo with the outputs it must end with, or the error it must fail with. */
export interface CatalogueCase {
  inputs: Record<string, string>;
  outputs?: Record<string, unknown>;
  error?: RegExp;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * The original service's stateless Utilities (Test, Text, Encoding, Hashing, Numbers, Formatting,
 * Finding, JSON, Validation) with the inputs and outputs its SDK names, keyed by id under
 * /Library/Utilities/.
 */
export function statelessUtilityCases(): Record<string, CatalogueCase> {
  return {
    'Encoding/Base64Decode': { inputs: { Base64EncodedText: 'aMOpbGxvIOKYgw==' }, outputs: { Text: 'héllo ☃' } },
    'Encoding/Base64Encode': { inputs: { Text: 'héllo ☃' }, outputs: { Base64EncodedText: 'aMOpbGxvIOKYgw==' } },
    'Encoding/HTMLEscape': {
      inputs: { UnescapedHTML: '<a href="x?a=1&b=2">Tom\'s</a>' },
      outputs: { EscapedHTML: '&lt;a href=&quot;x?a=1&amp;b=2&quot;&gt;Tom&#39;s&lt;/a&gt;' },
    },
    'Encoding/HTMLUnescape': {
      inputs: { EscapedHTML: '&lt;b&gt;caf&#233; &amp; cr&egrave;me&lt;/b&gt;' },
      outputs: { UnescapedHTML: '<b>café & cr&egrave;me</b>' },
    },
    'Encoding/URLDecode': { inputs: { Text: 'a+b%26c%3Dd%C3%A9' }, outputs: { URLDecodedText: 'a b&c=dé' } },
    'Encoding/URLEncode': { inputs: { Text: 'a b&c=dé~' }, outputs: { URLEncodedText: 'a+b%26c%3Dd%C3%A9%7E' } },
    'Finding/FindSubstring': { inputs: { Text: 'Banana band, BANANA', Substring: 'ban' }, outputs: { Count: '3', Positions: '[1,8,14]' } },
    'Finding/RegexMatch': { inputs: { Text: 'Order #A-1042 shipped', Pattern: '[A-Z]-\\d+' }, outputs: { Result: 'A-1042' } },
    'Formatting/RemoveWhiteSpace': {
      inputs: { FormattedText: '\n<order>\r\n\t<item id="1">two words</item>\n</order>\n  ' },
      outputs: { CompactText: '<order><item id="1">two words</item></order>' },
    },
    'Hashing/Checksum': { inputs: { Text: 'héllo' }, outputs: { Checksum: 'be50e8478cf24ff3595bc7307fb91b50' } },
    // RFC 2202 and RFC 4231, test case 2; their hexadecimal digests, Base64-encoded.
    'Hashing/HmacSHA1': { inputs: { Key: 'Jefe', Text: 'what do ya want for nothing?' }, outputs: { HmacSignature: '7/zfauXrL6LSdBbV8YTfnCWafHk=' } },
    'Hashing/HmacSHA256': {
      inputs: { Key: 'Jefe', Text: 'what do ya want for nothing?' },
      outputs: { HmacSignature: 'W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=' },
    },
    'Numbers/GenerateRandom': {
      inputs: {},
      outputs: {
        SignedDecimal: expect.stringMatching(/^-?0(\.\d+)?(e-\d+)?$|^-?\d(\.\d+)?e-\d+$/),
        SignedInteger: expect.stringMatching(/^-?\d{1,10}$/),
        UnsignedDecimal: expect.stringMatching(/^0(\.\d+)?$|^\d(\.\d+)?e-\d+$/),
        UnsignedInteger: expect.stringMatching(/^\d{1,10}$/),
      },
    },
    'Test/HelloWorld': { inputs: {}, outputs: { Result: 'Hello, world!' } },
    'Text/GenerateGUID': { inputs: {}, outputs: { GUID: expect.stringMatching(UUID) } },
    'Text/Lowercase': { inputs: { Text: 'Hello ÉCOLE 42' }, outputs: { Response: 'hello école 42' } },
    'Text/Split': { inputs: { Text: 'a, b,,c', Delimiter: ',' }, outputs: { Response: '["a"," b","","c"]', Count: '4' } },
    'Text/Substitute': { inputs: { Text: 'one cat, two cats', Old: 'cat', New: 'dog' }, outputs: { Response: 'one dog, two dogs' } },
    'Text/SubstituteRegex': {
      inputs: { Text: 'call 555-1234 or 555-9876', Pattern: '(\\d{3})-(\\d{4})', New: '$2/$1' },
      outputs: { Response: 'call 1234/555 or 9876/555' },
    },
    'Text/Uppercase': { inputs: { Text: 'hello straße 42' }, outputs: { Response: 'HELLO STRASSE 42' } },
  };
}

/** Further runs of the same Choreos: each input's edge, Unicode, malformed data. */
export function statelessUtilityEdgeCases(): Record<string, CatalogueCase & { id: string }> {
  return {
    'Base64Decode of binary data fails': {
      id: 'Encoding/Base64Decode',
      inputs: { Base64EncodedText: '/w==' },
      error: /^convert: the decoded Base64 is not valid UTF-8 text$/,
    },
    'Base64Decode of text that is not Base64 fails': {
      id: 'Encoding/Base64Decode',
      inputs: { Base64EncodedText: 'a*b' },
      error: /^convert: the text is not valid Base64$/,
    },
    'Base64Encode of an empty text': { id: 'Encoding/Base64Encode', inputs: { Text: '' }, outputs: { Base64EncodedText: '' } },
    'HTMLUnescape keeps a lone ampersand': { id: 'Encoding/HTMLUnescape', inputs: { EscapedHTML: 'R&D &#x1F600;' }, outputs: { UnescapedHTML: 'R&D 😀' } },
    'URLDecode of a broken escape fails': { id: 'Encoding/URLDecode', inputs: { Text: '100%' }, error: /^convert: / },
    'URLEncode of a lone surrogate fails': { id: 'Encoding/URLEncode', inputs: { Text: 'a\ud800' }, error: /^convert: the text is not valid Unicode/ },
    'FindSubstring case-sensitive from a start position': {
      id: 'Finding/FindSubstring',
      inputs: { Text: 'Banana band, BANANA', Substring: 'an', CaseSensitive: 'true', StartNumber: '3' },
      outputs: { Count: '2', Positions: '[4,9]' },
    },
    'FindSubstring counts characters': { id: 'Finding/FindSubstring', inputs: { Text: '😀é😀é', Substring: 'É' }, outputs: { Count: '2', Positions: '[2,4]' } },
    'FindSubstring finding nothing': { id: 'Finding/FindSubstring', inputs: { Text: '', Substring: 'x' }, outputs: { Count: '0', Positions: '[]' } },
    'FindSubstring with a bad StartNumber fails': {
      id: 'Finding/FindSubstring',
      inputs: { Text: 'abc', Substring: 'a', StartNumber: 'first' },
      error: /^find: invalid arguments: .*whole number/,
    },
    'RegexMatch without a match': { id: 'Finding/RegexMatch', inputs: { Text: 'no digits', Pattern: '\\d+' }, outputs: { Result: '' } },
    'RegexMatch with an invalid pattern fails': {
      id: 'Finding/RegexMatch',
      inputs: { Text: 'abc', Pattern: '[' },
      error: /^match: the regular expression is not valid/,
    },
    'RegexMatch without a pattern fails': {
      id: 'Finding/RegexMatch',
      inputs: { Text: 'abc' },
      error: /^match: invalid arguments: .*regular expression is empty/,
    },
    'RegexMatch stops a backtracking pattern': {
      id: 'Finding/RegexMatch',
      inputs: { Text: `${'a'.repeat(40)}!`, Pattern: '^(a+)+$' },
      error: /^match: the regular expression ran longer than 1000 ms/,
    },
    'RemoveWhiteSpace of white space alone': { id: 'Formatting/RemoveWhiteSpace', inputs: { FormattedText: ' \t\r\n ' }, outputs: { CompactText: '' } },
    'Checksum MD5 in Base64': { id: 'Hashing/Checksum', inputs: { Text: 'hello', Algorithm: 'MD5+BASE64' }, outputs: { Checksum: 'XUFAKrxLKna5cZ2REBfFkg==' } },
    'Checksum of Base64-decoded binary data': {
      id: 'Hashing/Checksum',
      inputs: { Text: 'AP8Q', Base64DecodeValue: '1' },
      outputs: { Checksum: '481e4551ec039aada760901cf52b1917' },
    },
    'Checksum FIX44': { id: 'Hashing/Checksum', inputs: { Text: '8=FIX.4.4\u00019=5\u000135=0\u0001', Algorithm: 'FIX44' }, outputs: { Checksum: '163' } },
    'Checksum with an unknown algorithm fails': {
      id: 'Hashing/Checksum',
      inputs: { Text: 'a', Algorithm: 'CRC32' },
      error: /^checksum: invalid arguments: .*MD5\+HEX, MD5\+BASE64, FIX44/,
    },
    'HmacSHA256 with an empty text and Unicode key': {
      id: 'Hashing/HmacSHA256',
      inputs: { Key: 'clé', Text: '' },
      outputs: { HmacSignature: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/) },
    },
    'HelloWorld greets the value': { id: 'Test/HelloWorld', inputs: { Value: 'Zoë 😀' }, outputs: { Result: 'Hello, Zoë 😀!' } },
    'Lowercase of an empty text': { id: 'Text/Lowercase', inputs: { Text: '' }, outputs: { Response: '' } },
    'Split at a multi-character delimiter, pattern characters literal': {
      id: 'Text/Split',
      inputs: { Text: 'a.*b.*😀', Delimiter: '.*' },
      outputs: { Response: '["a","b","😀"]', Count: '3' },
    },
    'Split of an empty text': { id: 'Text/Split', inputs: { Text: '', Delimiter: ',' }, outputs: { Response: '[""]', Count: '1' } },
    'Split by line': { id: 'Text/Split', inputs: { Text: 'one\r\ntwo\nthree', Delimiter: '\n' }, outputs: { Response: '["one","two","three"]', Count: '3' } },
    'Split with an empty delimiter fails': { id: 'Text/Split', inputs: { Text: 'abc', Delimiter: '' }, error: /^split: invalid arguments: .*separator/ },
    'Substitute with dollar signs literally': { id: 'Text/Substitute', inputs: { Text: 'a+b', Old: '+', New: '$&' }, outputs: { Response: 'a$&b' } },
    'Substitute of an empty Old fails': {
      id: 'Text/Substitute',
      inputs: { Text: 'abc', Old: '', New: 'x' },
      error: /^substitute: invalid arguments: .*text to replace is empty/,
    },
    'SubstituteRegex with an invalid pattern fails': {
      id: 'Text/SubstituteRegex',
      inputs: { Text: 'abc', Pattern: '(', New: 'x' },
      error: /^substitute: the regular expression is not valid/,
    },
    'SubstituteRegex stops a backtracking pattern': {
      id: 'Text/SubstituteRegex',
      inputs: { Text: `${'a'.repeat(40)}!`, Pattern: '^(a+)+$', New: 'x' },
      error: /^substitute: the regular expression ran longer than 1000 ms/,
    },
    'GenerateGUID differs every run': { id: 'Text/GenerateGUID', inputs: {}, outputs: { GUID: expect.stringMatching(UUID) } },
  };
}

export { UUID };
