import { describe, expect, it } from 'vitest';
import { ApiError } from '../errors/api-error.ts';
import { bodyText } from './body-text.ts';

const bytes = (...parts: (string | number[])[]) => {
  const buffer = Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'utf8') : Buffer.from(part))));
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength) as ArrayBuffer;
};

function refusal(body: ArrayBuffer, contentType: string | undefined): { status: number; message: string } {
  try {
    bodyText(body, contentType);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, message: error.message };
    throw error;
  }
  throw new Error('the body was taken');
}

describe('the text of a request body', () => {
  it('decodes UTF-8, with or without a byte order mark, when no charset or UTF-8 is declared', () => {
    const json = '{"inputs": [{"name": "Text", "value": "café € 😀 \uFFFD"}]}';
    for (const contentType of [
      undefined,
      'application/json',
      'application/json; charset=utf-8',
      'application/json;charset="UTF-8"',
      'application/json; Charset=utf8',
    ]) {
      expect(bodyText(bytes(json), contentType), contentType).toBe(json);
      expect(bodyText(bytes([0xef, 0xbb, 0xbf], json), contentType), contentType).toBe(json);
    }
    const xml = '<?xml version="1.0" encoding="utf-8"?><inputs/>';
    expect(bodyText(bytes([0xef, 0xbb, 0xbf], xml), 'application/xml')).toBe(xml);
    expect(bodyText(bytes('<?xml version="1.0"?><inputs/>'), 'text/xml; charset=UTF-8')).toBe('<?xml version="1.0"?><inputs/>');
  });

  it('takes an empty body whatever its Content-Type says', () => {
    expect(bodyText(new ArrayBuffer(0), 'application/json; charset=iso-8859-1')).toBe('');
  });

  it('refuses bytes that are not UTF-8 with 400, rather than replacing them', () => {
    for (const invalid of [[0xff, 0xfe, 0xc0], [0xc3], [0xed, 0xa0, 0x80], [0xf4, 0x8f, 0xbf], [0xc0, 0xaf]]) {
      const body = bytes('{"inputs": [{"name": "Text", "value": "', invalid, '"}]}');
      expect(refusal(body, 'application/json')).toEqual({ status: 400, message: 'The body is not valid UTF-8 text.' });
    }
    expect(refusal(bytes('<inputs><input><name>A</name><value>', [0xe9], '</value></input></inputs>'), 'application/xml').status).toBe(400);
  });

  it('refuses with 415 a body that Content-Type says is in another charset', () => {
    for (const charset of ['iso-8859-1', 'ISO-8859-1', '"windows-1252"', 'us-ascii', 'utf-16', 'utf-8-bom', '']) {
      const refused = refusal(bytes('{"inputs": []}'), `application/json; charset=${charset}`);
      expect(refused.status, charset).toBe(415);
      expect(refused.message, charset).toContain('UTF-8');
    }
    expect(refusal(bytes('{}'), 'application/json; charset=iso-8859-1').message).toBe(
      'The body must be UTF-8 text, not charset iso-8859-1 as Content-Type says.',
    );
    expect(refusal(bytes('{}'), `application/json; charset=${'<x>'.repeat(20)}`).message).toBe(
      'The body must be UTF-8 text, not another charset as Content-Type says.',
    );
    // Even when its bytes are not UTF-8: the charset is the cause.
    expect(refusal(bytes('<inputs>', [0xe9], '</inputs>'), 'application/xml; charset=ISO-8859-1').status).toBe(415);
    // A quoted value of another parameter is not a charset, whatever it holds.
    expect(() => bodyText(bytes('{}'), 'application/json; charset=utf-8; x="a;charset=latin1"')).not.toThrow();
    expect(() => bodyText(bytes('{}'), 'application/json; x="q\\";charset=latin1"; charset="utf-8"')).not.toThrow();
    // Given twice, each counts, in either order.
    for (const both of ['charset=utf-8; charset=iso-8859-1', 'charset=iso-8859-1; charset=utf-8']) {
      expect(refusal(bytes('{}'), `application/json; ${both}`).status, both).toBe(415);
    }
  });

  it('refuses with 415 XML whose declaration names another encoding', () => {
    for (const declaration of ['<?xml version="1.0" encoding="ISO-8859-1"?>', "<?xml version='1.0' encoding = 'windows-1252' standalone='yes'?>"]) {
      const refused = refusal(bytes(declaration, '<inputs><input><name>A</name><value>', [0xe9], '</value></input></inputs>'), 'application/xml');
      expect(refused.status, declaration).toBe(415);
      expect(refused.message, declaration).toMatch(/^The body must be UTF-8 text, not encoding (ISO-8859-1|windows-1252) as its XML declaration says\.$/);
      expect(refusal(bytes([0xef, 0xbb, 0xbf], declaration, '<inputs/>'), 'text/xml').status, declaration).toBe(415);
    }
  });
});
