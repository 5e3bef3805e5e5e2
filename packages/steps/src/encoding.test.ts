import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

describe('encoding steps', () => {
  it.each([
    ['encoding.base64-encode', 'héllo wörld', 'aMOpbGxvIHfDtnJsZA=='],
    ['encoding.base64-decode', 'aMOpbGxvIHfDtnJsZA==', 'héllo wörld'],
    ['encoding.base64-decode', 'aGk', 'hi'],
    ['encoding.base64url-encode', '??>', 'Pz8-'],
    ['encoding.base64url-decode', 'Pz8-', '??>'],
    ['encoding.url-encode', 'a b&c=d/é', 'a%20b%26c%3Dd%2F%C3%A9'],
    ['encoding.url-decode', 'a%20b+c%C3%A9', 'a b cé'],
    ['encoding.hex-encode', 'Hi!', '486921'],
    ['encoding.hex-decode', '48 69 21', 'Hi!'],
    ['encoding.html-encode', `<a href="x">Tom & Jerry's</a>`, '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;'],
    ['encoding.html-decode', '&lt;b&gt; &amp;amp; &#233;&#x41; &nbsp;&bogus;', '<b> &amp; éA \u00a0&bogus;'],
  ])('%s(%j) is %j', async (kind, text, expected) => {
    expect(await runStep(kind, { text })).toEqual({ text: expected });
  });

  it.each([
    ['encoding.base64-decode', 'not base64!', 'the text is not valid Base64'],
    ['encoding.base64-decode', '/w==', 'the decoded Base64 is not valid UTF-8 text'],
    ['encoding.base64url-decode', 'a+b/', 'the text is not valid Base64URL'],
    ['encoding.url-decode', '%E0%A4%A', 'not valid URL encoding'],
    ['encoding.hex-decode', 'abc', 'not valid hexadecimal'],
  ])('%s refuses %j without retry', async (kind, text, message) => {
    await expect(runStep(kind, { text })).rejects.toMatchObject({ retryable: false, message: expect.stringContaining(message) });
  });
});
