import { ECHO_SERVER_PAGES } from '../support/echo-server.ts';
import type { ChoreoCase } from './choreo-case.ts';

const PAGE = ECHO_SERVER_PAGES['/page.html']?.body ?? '';
const family = 'Encoding';

export const cases: ChoreoCase[] = [
  { family, choreo: 'Base64Encode', inputs: { Text: 'héllo ☃' }, outputs: { Base64EncodedText: 'aMOpbGxvIOKYgw==' } },
  { family, choreo: 'Base64Encode', name: 'ASCII text', inputs: { Text: 'hello, world' }, outputs: { Base64EncodedText: 'aGVsbG8sIHdvcmxk' } },
  {
    family,
    choreo: 'Base64Encode',
    name: 'text of several scripts',
    inputs: { Text: 'Grüße, 世界 ☺' },
    outputs: { Base64EncodedText: Buffer.from('Grüße, 世界 ☺').toString('base64') },
  },
  {
    family,
    choreo: 'Base64Encode',
    name: 'a file at a URL',
    inputs: {},
    contextInputs: ({ echoServerUrl }) => ({ URL: `${echoServerUrl}/page.html` }),
    outputs: { Base64EncodedText: Buffer.from(PAGE, 'utf8').toString('base64') },
  },
  { family, choreo: 'Base64Encode', name: 'an empty text', inputs: { Text: '' }, outputs: { Base64EncodedText: '' } },
  { family, choreo: 'Base64Decode', inputs: { Base64EncodedText: 'aMOpbGxvIOKYgw==' }, outputs: { Text: 'héllo ☃' } },
  { family, choreo: 'Base64Decode', name: 'ASCII text', inputs: { Base64EncodedText: 'aGVsbG8sIHdvcmxk' }, outputs: { Text: 'hello, world' } },
  {
    family,
    choreo: 'Base64Decode',
    name: 'binary data is refused',
    inputs: { Base64EncodedText: '/w==' },
    error: /^convert: the decoded Base64 is not valid UTF-8 text$/,
  },
  { family, choreo: 'Base64Decode', name: 'text that is not Base64', inputs: { Base64EncodedText: 'a*b' }, error: /^convert: the text is not valid Base64$/ },
  {
    family,
    choreo: 'HTMLEscape',
    inputs: { UnescapedHTML: '<a href="x?a=1&b=2">Tom\'s</a>' },
    outputs: { EscapedHTML: '&lt;a href=&quot;x?a=1&amp;b=2&quot;&gt;Tom&#39;s&lt;/a&gt;' },
  },
  {
    family,
    choreo: 'HTMLUnescape',
    inputs: { EscapedHTML: '&lt;b&gt;caf&#233; &amp; more&lt;/b&gt;' },
    outputs: { UnescapedHTML: '<b>café & more</b>' },
  },
  {
    family,
    choreo: 'HTMLUnescape',
    name: 'only the entities HTMLEscape writes',
    inputs: { EscapedHTML: '&lt;b&gt;caf&#233; &amp; cr&egrave;me&lt;/b&gt;' },
    outputs: { UnescapedHTML: '<b>café & cr&egrave;me</b>' },
  },
  { family, choreo: 'HTMLUnescape', name: 'a lone ampersand kept', inputs: { EscapedHTML: 'R&D &#x1F600;' }, outputs: { UnescapedHTML: 'R&D 😀' } },
  { family, choreo: 'URLDecode', inputs: { Text: 'a+b%26c%3Dd%C3%A9' }, outputs: { URLDecodedText: 'a b&c=dé' } },
  { family, choreo: 'URLDecode', name: 'a broken escape', inputs: { Text: '100%' }, error: /^convert: / },
  { family, choreo: 'URLEncode', inputs: { Text: 'a b&c=dé~' }, outputs: { URLEncodedText: 'a+b%26c%3Dd%C3%A9%7E' } },
  { family, choreo: 'URLEncode', name: 'a lone surrogate', inputs: { Text: 'a\ud800' }, error: /^convert: the text is not valid Unicode/ },

  // The service's own Encoding Choreos, which the SDK has no class for.
  { family, choreo: 'Base64URLDecode', inputs: { Base64URLEncodedText: 'Pz8-' }, outputs: { Text: '??>' }, only: 'engine' },
  { family, choreo: 'Base64URLEncode', inputs: { Text: '??>' }, outputs: { Base64URLEncodedText: 'Pz8-' }, only: 'engine' },
  { family, choreo: 'HexDecode', inputs: { HexEncodedText: '6869' }, outputs: { Text: 'hi' }, only: 'engine' },
  { family, choreo: 'HexEncode', inputs: { Text: 'hi' }, outputs: { HexEncodedText: '6869' }, only: 'engine' },
];
