import { z } from 'zod';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { text } from './arg-types.ts';

const textArgs = z.strictObject({ text });
const example = { text: '{{inputs.Text}}' };
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function utf8(bytes: Buffer, what: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new InvalidStepInputError(`the decoded ${what} is not valid UTF-8 text`);
  }
}

function transform(kind: string, description: string, convert: (value: string) => string): StepKind {
  return defineStepKind({
    kind,
    pure: true,
    description: `${description} Result: \`{ text }\`.`,
    argsSchema: textArgs,
    example,
    run: async ({ text: value }) => ({ text: convert(value) }),
  });
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const BASE64URL = /^[A-Za-z0-9_-]*={0,2}$/;

function decodeBase64(value: string, alphabet: RegExp, encoding: 'base64' | 'base64url', name: string): string {
  // Buffer.from silently skips bad characters; check first so bad input fails the step instead.
  const compact = value.replace(/\s+/g, '');
  if (!alphabet.test(compact) || compact.replace(/=+$/, '').length % 4 === 1) {
    throw new InvalidStepInputError(`the text is not valid ${name}`);
  }
  return utf8(Buffer.from(compact, encoding), name);
}

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const HTML_NAMED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '\u00a9',
  reg: '\u00ae',
  euro: '\u20ac',
  hellip: '\u2026',
  mdash: '\u2014',
  ndash: '\u2013',
  laquo: '\u00ab',
  raquo: '\u00bb',
};

export function decodeHtmlEntities(value: string): string {
  return value.replace(/&(#[xX][0-9a-fA-F]{1,6}|#\d{1,7}|[A-Za-z]{2,8});/g, (entity, body: string) => {
    if (body.startsWith('#')) {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : entity;
    }
    return HTML_NAMED[body] ?? entity;
  });
}

export const encodingSteps: readonly StepKind[] = [
  transform('encoding.base64-encode', 'Base64-encodes the UTF-8 bytes of `text`.', (value) => Buffer.from(value, 'utf8').toString('base64')),
  transform('encoding.base64-decode', 'Decodes Base64 `text` (whitespace ignored, padding optional) into UTF-8 text.', (value) =>
    decodeBase64(value, BASE64, 'base64', 'Base64'),
  ),
  transform('encoding.base64url-encode', 'Base64URL-encodes (RFC 4648 §5, no padding) the UTF-8 bytes of `text`.', (value) =>
    Buffer.from(value, 'utf8').toString('base64url'),
  ),
  transform('encoding.base64url-decode', 'Decodes Base64URL `text` into UTF-8 text.', (value) => decodeBase64(value, BASE64URL, 'base64url', 'Base64URL')),
  transform('encoding.url-encode', 'Percent-encodes `text` for use in a URL component (encodeURIComponent).', (value) => encodeURIComponent(value)),
  transform('encoding.url-decode', 'Decodes percent-encoded `text`; `+` is read as a space, as in form data.', (value) => {
    try {
      return decodeURIComponent(value.replaceAll('+', ' '));
    } catch {
      throw new InvalidStepInputError('the text is not valid URL encoding (a "%" is not followed by two hex digits of UTF-8)');
    }
  }),
  transform('encoding.hex-encode', 'Hex-encodes (lowercase) the UTF-8 bytes of `text`.', (value) => Buffer.from(value, 'utf8').toString('hex')),
  transform('encoding.hex-decode', 'Decodes hexadecimal `text` (either case, whitespace ignored) into UTF-8 text.', (value) => {
    const compact = value.replace(/\s+/g, '');
    if (!/^(?:[0-9a-fA-F]{2})*$/.test(compact)) {
      throw new InvalidStepInputError('the text is not valid hexadecimal (expected pairs of 0-9, a-f)');
    }
    return utf8(Buffer.from(compact, 'hex'), 'hexadecimal');
  }),
  transform('encoding.html-encode', 'Escapes `& < > " \'` as HTML entities.', (value) => value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char)),
  transform(
    'encoding.html-decode',
    'Decodes numeric HTML entities and the common named ones (amp, lt, gt, quot, apos, nbsp, …); unknown entities are kept.',
    decodeHtmlEntities,
  ),
];
