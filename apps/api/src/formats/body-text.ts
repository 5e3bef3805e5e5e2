import { ApiError } from '../errors/api-error.ts';
import { bodyFormat } from './negotiate.ts';

/** Throws on the first byte that is not UTF-8; drops a leading byte order mark, as before. */
const UTF8 = new TextDecoder('utf-8', { fatal: true });
/** `utf8` is the same encoding, under a label clients send (WHATWG Encoding lists it). */
const UTF8_LABEL = /^utf-?8$/i;
/** A charset or encoding name that may be repeated in a message; anything else is not echoed. */
const PRINTABLE_NAME = /^[\w.:+-]{1,40}$/;
/** An XML declaration's encoding; names are ASCII, so the first bytes read as Latin-1 will do. */
const XML_ENCODING = /^<\?xml\s[^?>]*?\bencoding\s*=\s*(?:"([^"]*)"|'([^']*)')/;
const XML_DECLARATION_BYTES = 256;
/** `; name=value` or `; name="quoted value"` (RFC 9110's parameters, leniently spaced). */
const MEDIA_TYPE_PARAMETER = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;

/**
 * The text of a request body, which must be UTF-8. Bytes that are not were once decoded to U+FFFD
 * and run as such, and a body in another charset was read as UTF-8 all the same: now the first
 * is 400 and the second, declared by Content-Type's charset or an XML declaration, 415. No charset
 * means UTF-8. An empty body is empty text whatever its Content-Type.
 */
export function bodyText(bytes: ArrayBuffer, contentType: string | undefined): string {
  if (bytes.byteLength === 0) return '';
  // Every charset given counts, not the first: `charset=utf-8; charset=iso-8859-1` is no UTF-8.
  const charset = charsetsOf(contentType).find((name) => !UTF8_LABEL.test(name));
  if (charset !== undefined) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `The body must be UTF-8 text, not ${named('charset', charset)} as Content-Type says.`);
  }
  if (bodyFormat(contentType) === 'xml') {
    const encoding = xmlDeclaredEncoding(bytes);
    if (encoding !== undefined && !UTF8_LABEL.test(encoding)) {
      throw new ApiError('UNSUPPORTED_MEDIA_TYPE', `The body must be UTF-8 text, not ${named('encoding', encoding)} as its XML declaration says.`);
    }
  }
  try {
    return UTF8.decode(bytes);
  } catch {
    throw new ApiError('BAD_REQUEST', 'The body is not valid UTF-8 text.');
  }
}

function named(what: string, name: string): string {
  return PRINTABLE_NAME.test(name) ? `${what} ${name}` : `another ${what}`;
}

/** The charset parameters of a media type, unquoted (usually none, at most one). */
function charsetsOf(contentType: string | undefined): string[] {
  // Most clients send a bare media type: nothing to look for then.
  if (contentType === undefined || !contentType.includes(';')) return [];
  const charsets: string[] = [];
  // Parameters are `;`-separated, but a quoted value may hold `;` and `=` of its own.
  for (const [, name, quoted, token] of contentType.matchAll(MEDIA_TYPE_PARAMETER)) {
    if (name?.toLowerCase() === 'charset') charsets.push(quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (token ?? '').trim());
  }
  return charsets;
}

/** The encoding an XML declaration at the start of the body names, after an optional UTF-8 BOM. */
function xmlDeclaredEncoding(bytes: ArrayBuffer): string | undefined {
  const start = new Uint8Array(bytes, 0, Math.min(bytes.byteLength, 3));
  const offset = start[0] === 0xef && start[1] === 0xbb && start[2] === 0xbf ? 3 : 0;
  const length = Math.min(bytes.byteLength - offset, XML_DECLARATION_BYTES);
  const match = XML_ENCODING.exec(Buffer.from(bytes, offset, length).toString('latin1'));
  return match ? (match[1] ?? match[2]) : undefined;
}
