/**
 * The debug log of an HTTP request the original Utilities' HTTP Choreos return (HTTPLog): the
 * request as sent and the response as received, curl-style (`>` sent, `<` received). Credentials
 * are not repeated: the log is an output, kept with the execution.
 */

/** Longest part of a body the log shows. */
const MAX_LOGGED_BODY_BYTES = 64 * 1024;
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie']);

export interface HttpExchange {
  method: string;
  url: URL;
  requestHeaders: Readonly<Record<string, string | number | readonly string[]>>;
  requestBody: Buffer | undefined;
  status: number;
  statusMessage: string;
  httpVersion: string;
  /** As received: name, value, name, value… */
  rawResponseHeaders: readonly string[];
  responseBody: Buffer;
}

export function httpLog(exchange: HttpExchange): string {
  const headers = Object.entries(exchange.requestHeaders);
  const has = (wanted: string) => headers.some(([name]) => name.toLowerCase() === wanted);
  const lines = [`> ${exchange.method} ${exchange.url.pathname}${exchange.url.search} HTTP/1.1`];
  if (!has('host')) lines.push(`> host: ${exchange.url.host}`);
  for (const [name, value] of headers) {
    for (const item of Array.isArray(value) ? value : [value]) lines.push(`> ${name}: ${shown(name, String(item))}`);
  }
  if (exchange.requestBody !== undefined && !has('content-length') && !has('transfer-encoding')) {
    lines.push(`> content-length: ${exchange.requestBody.length}`);
  }
  lines.push('>');
  if (exchange.requestBody !== undefined && exchange.requestBody.length > 0) lines.push(...bodyLines('>', exchange.requestBody));
  lines.push(`< HTTP/${exchange.httpVersion} ${exchange.status} ${exchange.statusMessage}`.trimEnd());
  for (let index = 0; index + 1 < exchange.rawResponseHeaders.length; index += 2) {
    const name = exchange.rawResponseHeaders[index] ?? '';
    lines.push(`< ${name}: ${shown(name, exchange.rawResponseHeaders[index + 1] ?? '')}`);
  }
  lines.push('<');
  if (exchange.responseBody.length > 0) lines.push(...bodyLines('<', exchange.responseBody));
  return lines.join('\n');
}

function shown(name: string, value: string): string {
  if (!SECRET_HEADERS.has(name.toLowerCase())) return value;
  const scheme = /^(\w+)\s/.exec(value)?.[1];
  return scheme === undefined ? '[hidden]' : `${scheme} [hidden]`;
}

function bodyLines(prefix: string, body: Buffer): string[] {
  const shownPart = body.subarray(0, MAX_LOGGED_BODY_BYTES);
  const text = shownPart.toString('utf8');
  // Bytes that are not UTF-8 text (an image, a zip) are counted, not printed.
  if (text.includes('\uFFFD') || hasControlCharacters(text)) return [`${prefix} [${body.length} bytes of binary data]`];
  const lines = text.split(/\r?\n/).map((line) => `${prefix} ${line}`);
  if (body.length > shownPart.length) lines.push(`${prefix} [… ${body.length - shownPart.length} more bytes]`);
  return lines;
}

/** C0 controls other than tab, line feed, vertical tab, form feed and carriage return: not text. */
function hasControlCharacters(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 && (code < 0x09 || code > 0x0d)) return true;
  }
  return false;
}
