import { ECHO_SERVER_PAGES } from '../../support/echo-server.ts';
import type { SdkCase } from '../../support/sdk-case.ts';

const PAGE = ECHO_SERVER_PAGES['/page.html']?.body ?? '';

export const cases: SdkCase[] = [
  { family: 'Encoding', choreo: 'Base64Encode', inputs: { Text: 'héllo ☃' }, expect: { Base64EncodedText: 'aMOpbGxvIOKYgw==' } },
  {
    family: 'Encoding',
    choreo: 'Base64Encode',
    name: 'a file at a URL',
    inputs: {},
    contextInputs: (context) => ({ URL: `${context.echoServerUrl}/page.html` }),
    expect: { Base64EncodedText: Buffer.from(PAGE, 'utf8').toString('base64') },
  },
  { family: 'Encoding', choreo: 'Base64Encode', name: 'an empty text', inputs: { Text: '' }, expect: { Base64EncodedText: '' } },
  { family: 'Encoding', choreo: 'Base64Decode', inputs: { Base64EncodedText: 'aMOpbGxvIOKYgw==' }, expect: { Text: 'héllo ☃' } },
  { family: 'Encoding', choreo: 'Base64Decode', name: 'binary data is refused', inputs: { Base64EncodedText: '/w==' }, error: /not valid UTF-8/ },
  {
    family: 'Encoding',
    choreo: 'HTMLEscape',
    inputs: { UnescapedHTML: '<a href="x?a=1&b=2">Tom\'s</a>' },
    expect: { EscapedHTML: '&lt;a href=&quot;x?a=1&amp;b=2&quot;&gt;Tom&#39;s&lt;/a&gt;' },
  },
  {
    family: 'Encoding',
    choreo: 'HTMLUnescape',
    inputs: { EscapedHTML: '&lt;b&gt;caf&#233; &amp; more&lt;/b&gt;' },
    expect: { UnescapedHTML: '<b>café & more</b>' },
  },
  { family: 'Encoding', choreo: 'URLEncode', inputs: { Text: 'a b&c=dé~' }, expect: { URLEncodedText: 'a+b%26c%3Dd%C3%A9%7E' } },
  { family: 'Encoding', choreo: 'URLDecode', inputs: { Text: 'a+b%26c%3Dd%C3%A9' }, expect: { URLDecodedText: 'a b&c=dé' } },
];
