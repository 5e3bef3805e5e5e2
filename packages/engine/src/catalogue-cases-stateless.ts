import { expect } from 'vitest';

/** A run of a catalogue Choreo with the outputs it must end with, or the error it must fail with. */
export interface CatalogueCase {
  inputs: Record<string, string>;
  outputs?: Record<string, unknown>;
  error?: RegExp;
}

const XSD =
  '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element name="order"><xs:complexType><xs:sequence>' +
  '<xs:element name="qty" type="xs:positiveInteger" maxOccurs="unbounded"/></xs:sequence>' +
  '<xs:attribute name="id" type="xs:string" use="required"/></xs:complexType></xs:element></xs:schema>';
/** Near the 5 MiB limit of a step's text. */
const LARGE = 5 * 1024 * 1024 - 16;

/** A JSON array of objects just under LARGE characters. */
function largeJson(): string {
  const item = '{"name":"é😀","n":1},';
  return `[${item.repeat(Math.floor((LARGE - 2) / item.length)).slice(0, -1)}]`;
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
    'JSON/GetValuesFromJSON': {
      inputs: { JSON: '{"order":{"id":7,"items":[{"id":8,"name":"pen"},{"id":9,"name":"ink"}]}}', Property: 'name' },
      outputs: { Response: '["pen","ink"]', Count: '2' },
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
    'Validation/CanadianPostalCodes': { inputs: { ZipCode: 'K1A 0B1' }, outputs: { Match: 'valid' } },
    'Validation/DutchPostalCodes': { inputs: { ZipCode: '1012 AB' }, outputs: { Match: 'valid' } },
    'Validation/EmailAddress': { inputs: { EmailAddress: 'first.last+tag@mail.example.org' }, outputs: { Match: 'valid' } },
    'Validation/GermanPostalCodes': { inputs: { ZipCode: '10115' }, outputs: { Match: 'valid' } },
    'Validation/JSON': { inputs: { JSON: '{"a":[1,"é",null]}' }, outputs: { Result: 'valid', Error: '' } },
    'Validation/PasswordCriteria': { inputs: { Password: 'Secret12' }, outputs: { Match: 'valid' } },
    'Validation/RussianPostalCodes': { inputs: { ZipCode: '101000' }, outputs: { Match: 'valid' } },
    'Validation/UKPostalCodes': { inputs: { ZipCode: 'SW1A 1AA' }, outputs: { Match: 'valid' } },
    'Validation/USPostalCodes': { inputs: { ZipCode: '12345-6789' }, outputs: { Match: 'valid' } },
    'Validation/XML': { inputs: { XMLFile: '<order id="7"><qty>2</qty></order>', XSDFile: XSD }, outputs: { Result: 'valid', Error: '' } },
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
    // With the URL input, an empty text with no URL names nothing to encode.
    'Base64Encode of an empty text and no URL fails': {
      id: 'Encoding/Base64Encode',
      inputs: { Text: '' },
      error: /^convert: give the text to encode, or the URL of a file to encode$/,
    },
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
    'GetValuesFromJSON of one string answers the string itself': {
      id: 'JSON/GetValuesFromJSON',
      inputs: { JSON: '{"user":{"name":"Zoë 😀"}}', Property: 'name' },
      outputs: { Response: 'Zoë 😀', Count: '1' },
    },
    'GetValuesFromJSON of one object answers its JSON': {
      id: 'JSON/GetValuesFromJSON',
      inputs: { JSON: '{"user":{"name":"Zoë"}}', Property: 'user' },
      outputs: { Response: '{"name":"Zoë"}', Count: '1' },
    },
    'GetValuesFromJSON finding nothing': { id: 'JSON/GetValuesFromJSON', inputs: { JSON: '{"a":1}', Property: 'b' }, outputs: { Response: '[]', Count: '0' } },
    'GetValuesFromJSON of malformed JSON fails': {
      id: 'JSON/GetValuesFromJSON',
      inputs: { JSON: '{"a": 1,,}', Property: 'a' },
      error: /^find: JSON is not valid: .*position 8/,
    },
    'GetValuesFromJSON of an empty document fails': { id: 'JSON/GetValuesFromJSON', inputs: { JSON: '', Property: 'a' }, error: /^find: JSON is not valid/ },
    'CanadianPostalCodes refuses a D': { id: 'Validation/CanadianPostalCodes', inputs: { ZipCode: 'D1A 0B1' }, outputs: { Match: 'invalid' } },
    'DutchPostalCodes refuses a leading zero': { id: 'Validation/DutchPostalCodes', inputs: { ZipCode: '0123 AB' }, outputs: { Match: 'invalid' } },
    'EmailAddress refuses a missing domain': { id: 'Validation/EmailAddress', inputs: { EmailAddress: 'someone@' }, outputs: { Match: 'invalid' } },
    'EmailAddress refuses an empty value': { id: 'Validation/EmailAddress', inputs: { EmailAddress: '' }, outputs: { Match: 'invalid' } },
    'GermanPostalCodes refuses four digits': { id: 'Validation/GermanPostalCodes', inputs: { ZipCode: '1011' }, outputs: { Match: 'invalid' } },
    'RussianPostalCodes refuses letters': { id: 'Validation/RussianPostalCodes', inputs: { ZipCode: '10100A' }, outputs: { Match: 'invalid' } },
    'UKPostalCodes refuses lower case': { id: 'Validation/UKPostalCodes', inputs: { ZipCode: 'sw1a 1aa' }, outputs: { Match: 'invalid' } },
    'USPostalCodes refuses a short ZIP+4': { id: 'Validation/USPostalCodes', inputs: { ZipCode: '12345-678' }, outputs: { Match: 'invalid' } },
    'JSON reports what is wrong': {
      id: 'Validation/JSON',
      inputs: { JSON: '{"a": 1,,}' },
      outputs: { Result: 'invalid', Error: expect.stringMatching(/position 8/) },
    },
    'JSON of an empty text is invalid': { id: 'Validation/JSON', inputs: { JSON: '' }, outputs: { Result: 'invalid', Error: expect.any(String) } },
    'PasswordCriteria with its default lengths refuses 15 characters': {
      id: 'Validation/PasswordCriteria',
      inputs: { Password: 'Secret12Secret1' },
      outputs: { Match: 'invalid' },
    },
    'PasswordCriteria with lengths given': {
      id: 'Validation/PasswordCriteria',
      inputs: { Password: 'Ab1', MinLength: '3', MaxLength: '3' },
      outputs: { Match: 'valid' },
    },
    'PasswordCriteria needs an upper-case letter': { id: 'Validation/PasswordCriteria', inputs: { Password: 'secret12' }, outputs: { Match: 'invalid' } },
    'PasswordCriteria with contradicting lengths fails': {
      id: 'Validation/PasswordCriteria',
      inputs: { Password: 'Secret12', MinLength: '10', MaxLength: '8' },
      error: /^check: invalid arguments: .*minimum length is greater than the maximum/,
    },
    'XML without a schema: well-formed': { id: 'Validation/XML', inputs: { XMLFile: '<a><b>héllo ☃</b></a>' }, outputs: { Result: 'valid', Error: '' } },
    'XML malformed: invalid, saying where': {
      id: 'Validation/XML',
      inputs: { XMLFile: '<a>\n<b></a>' },
      outputs: { Result: 'invalid', Error: expect.stringMatching(/^line 2: parser error : .*mismatch/) },
    },
    'XML not valid against the schema': {
      id: 'Validation/XML',
      inputs: { XMLFile: '<order><qty>0</qty></order>', XSDFile: XSD },
      outputs: { Result: 'invalid', Error: expect.stringMatching(/^line 1: .*'id' is required.*\nline 1: .*'0' is not a valid value/) },
    },
    'XML with a schema that does not compile fails': {
      id: 'Validation/XML',
      inputs: { XMLFile: '<a/>', XSDFile: '<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema"><xs:element/></xs:schema>' },
      error: /^validate: the XSD is not valid: line 1: .*'name' is required/,
    },
    'XML with a schema that is not XML fails': {
      id: 'Validation/XML',
      inputs: { XMLFile: '<a/>', XSDFile: '{"not":"xml"}' },
      error: /^validate: the XSD is not valid/,
    },
    'Uppercase of the largest text': { id: 'Text/Uppercase', inputs: { Text: 'é'.repeat(LARGE) }, outputs: { Response: 'É'.repeat(LARGE) } },
    'Split of a large text': {
      id: 'Text/Split',
      inputs: { Text: 'ab,'.repeat(LARGE / 4), Delimiter: ',' },
      outputs: { Response: JSON.stringify([...Array.from({ length: LARGE / 4 }, () => 'ab'), '']), Count: String(LARGE / 4 + 1) },
    },
    'Validation/JSON of a large document': { id: 'Validation/JSON', inputs: { JSON: largeJson() }, outputs: { Result: 'valid', Error: '' } },
    'Validation/JSON of a large document cut short': {
      id: 'Validation/JSON',
      inputs: { JSON: largeJson().slice(0, -1) },
      outputs: { Result: 'invalid', Error: expect.stringMatching(/JSON/) },
    },
    'GetValuesFromJSON in a large document': {
      id: 'JSON/GetValuesFromJSON',
      inputs: { JSON: JSON.stringify({ items: Array.from({ length: 100_000 }, (_, index) => ({ id: index })), total: 100_000 }), Property: 'total' },
      outputs: { Response: '100000', Count: '1' },
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
