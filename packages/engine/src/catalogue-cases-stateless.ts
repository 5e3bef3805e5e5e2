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
