/** An answer read whole: its status, the start of its body, and whether its connection may carry more. */
export interface Http1Response {
  status: number;
  /** The first `keptBodyBytes` of the body. */
  body: Buffer;
  /** False when the server said it closes the connection (or can only by closing it end the body). */
  keepAlive: boolean;
}

export interface Http1ResponseLimits {
  /** A longer body is an error (ResponseTooLargeError). */
  maxBodyBytes: number;
  /** How much of the body the answer keeps. */
  keptBodyBytes: number;
}

/** The server broke HTTP/1.x: the connection can carry nothing more. */
export class MalformedResponseError extends Error {}

/** The body went past `maxBodyBytes`. */
export class ResponseTooLargeError extends Error {}

// Longest status line and headers, and longest chunk-size line, read before the answer is refused.
const MOST_HEAD_BYTES = 64 * 1024;
const MOST_LINE_BYTES = 1024;
const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
const BARE_HEAD_END = Buffer.from('\n\n');

/** The lower-cased comma-separated tokens of a header's value. */
const tokens = (value: string) =>
  value
    .toLowerCase()
    .split(',')
    .map((token) => token.trim())
    .filter((token) => token !== '');

type Phase =
  | { kind: 'head' }
  | { kind: 'sized'; left: number }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; left: number }
  | { kind: 'chunk-end' }
  | { kind: 'trailers' }
  | { kind: 'to-close' };

/**
 * Reads the answers of one HTTP/1.x connection, in order, from the bytes as they come, however
 * they are cut: interim (1xx) answers are skipped, sized, chunked and close-delimited bodies read,
 * and of a body only its first bytes kept, so that a large one costs no copy of itself. Answers to
 * POST only: no answer to HEAD or CONNECT is expected.
 */
export function createHttp1ResponseReader(limits: Http1ResponseLimits, onResponse: (response: Http1Response) => void) {
  let pending: Buffer | undefined;
  let phase: Phase = { kind: 'head' };
  let status = 0;
  let keepAlive = true;
  let kept: Buffer[] = [];
  let keptBytes = 0;
  let bodyBytes = 0;
  let trailerBytes = 0;

  const take = (bytes: Buffer) => {
    bodyBytes += bytes.length;
    if (bodyBytes > limits.maxBodyBytes) throw new ResponseTooLargeError(`HTTP response body is larger than ${limits.maxBodyBytes} bytes`);
    if (keptBytes < limits.keptBodyBytes) {
      const part = bytes.subarray(0, limits.keptBodyBytes - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
  };

  const finish = () => {
    const body = kept.length === 1 ? (kept[0] as Buffer) : Buffer.concat(kept);
    const response = { status, body, keepAlive };
    phase = { kind: 'head' };
    kept = [];
    keptBytes = 0;
    bodyBytes = 0;
    trailerBytes = 0;
    onResponse(response);
  };

  /** Where a line (or the head) ends in `bytes`, or -1 while it is incomplete and within `most`. */
  const lineEnd = (bytes: Buffer, marker: Buffer, most: number, what: string) => {
    const at = bytes.indexOf(marker);
    if (at < 0 && bytes.length > most) throw new MalformedResponseError(`${what} longer than ${most} bytes`);
    return at;
  };

  function readHead(head: string) {
    const lines = head.split('\r\n');
    const match = /^HTTP\/1\.([01]) (\d{3})(?: |$)/.exec(lines[0] ?? '');
    if (!match) throw new MalformedResponseError(`not an HTTP/1.x answer: ${JSON.stringify((lines[0] ?? '').slice(0, 40))}`);
    status = Number(match[2]);
    let length: number | undefined;
    // The comma-separated tokens of every Transfer-Encoding and Connection header, in order.
    const codings: string[] = [];
    const connection: string[] = [];
    for (let index = 1; index < lines.length; index += 1) {
      const line = lines[index] as string;
      const colon = line.indexOf(':');
      if (colon <= 0) throw new MalformedResponseError('a malformed header line');
      const name = line.slice(0, colon).trim().toLowerCase();
      const value = line.slice(colon + 1).trim();
      if (name === 'content-length') {
        if (!/^\d{1,15}$/.test(value) || (length !== undefined && length !== Number(value))) throw new MalformedResponseError('a malformed content-length');
        length = Number(value);
      } else if (name === 'transfer-encoding') codings.push(...tokens(value));
      else if (name === 'connection') connection.push(...tokens(value));
    }
    keepAlive = match[1] === '1' ? !connection.includes('close') : connection.includes('keep-alive');
    if (status < 200) {
      // An interim answer: the real one follows. 101 would switch protocols, which a POST never asked for.
      if (status === 101) throw new MalformedResponseError('an unasked-for protocol switch');
      return;
    }
    if (status === 204 || status === 304) finish();
    else if (codings.length > 0) {
      // A Transfer-Encoding overrides any Content-Length; one that does not end in chunked ends with the connection.
      if (codings.at(-1) === 'chunked') phase = { kind: 'chunk-size' };
      else toClose();
    } else if (length !== undefined) {
      if (length > limits.maxBodyBytes) throw new ResponseTooLargeError(`HTTP response body is larger than ${limits.maxBodyBytes} bytes`);
      phase = { kind: 'sized', left: length };
      if (length === 0) finish();
    } else toClose();
  }

  function toClose() {
    keepAlive = false;
    phase = { kind: 'to-close' };
  }

  /** Consumes what it can of `bytes`; what it cannot use yet is its return. */
  function step(bytes: Buffer): Buffer | undefined {
    switch (phase.kind) {
      case 'head': {
        const end = lineEnd(bytes, HEAD_END, MOST_HEAD_BYTES, 'an answer head');
        // Lines ended by LF alone would otherwise be waited on until the deadline.
        if (end < 0 && bytes.includes(BARE_HEAD_END)) throw new MalformedResponseError('an answer head whose lines do not end in CRLF');
        if (end < 0) return bytes;
        readHead(bytes.toString('latin1', 0, end));
        return bytes.subarray(end + 4);
      }
      case 'sized': {
        const part = bytes.subarray(0, phase.left);
        take(part);
        phase.left -= part.length;
        if (phase.left === 0) finish();
        return bytes.subarray(part.length);
      }
      case 'chunk-size': {
        const end = lineEnd(bytes, CRLF, MOST_LINE_BYTES, 'a chunk-size line');
        if (end < 0) return bytes;
        const text = bytes.toString('latin1', 0, end).split(';')[0]?.trim() ?? '';
        if (!/^[0-9a-fA-F]{1,12}$/.test(text)) throw new MalformedResponseError('a malformed chunk size');
        const size = Number.parseInt(text, 16);
        phase = size === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', left: size };
        return bytes.subarray(end + 2);
      }
      case 'chunk-data': {
        const part = bytes.subarray(0, phase.left);
        take(part);
        phase.left -= part.length;
        if (phase.left === 0) phase = { kind: 'chunk-end' };
        return bytes.subarray(part.length);
      }
      case 'chunk-end': {
        if (bytes.length < 2) return bytes;
        if (bytes[0] !== 13 || bytes[1] !== 10) throw new MalformedResponseError('a chunk not ended by CRLF');
        phase = { kind: 'chunk-size' };
        return bytes.subarray(2);
      }
      case 'trailers': {
        const end = lineEnd(bytes, CRLF, MOST_HEAD_BYTES, 'a trailer');
        if (end < 0) return bytes;
        trailerBytes += end + 2;
        if (trailerBytes > MOST_HEAD_BYTES) throw new MalformedResponseError(`trailers longer than ${MOST_HEAD_BYTES} bytes`);
        if (end === 0) finish();
        return bytes.subarray(end + 2);
      }
      case 'to-close':
        take(bytes);
        return bytes.subarray(bytes.length);
    }
  }

  return {
    /** Reads `chunk`; throws MalformedResponseError or ResponseTooLargeError, after which the reader is spent. */
    push(chunk: Buffer): void {
      let bytes = pending ? Buffer.concat([pending, chunk]) : chunk;
      pending = undefined;
      while (bytes.length > 0) {
        const before = bytes.length;
        const left = step(bytes);
        if (left === undefined || left.length === before) {
          pending = left;
          return;
        }
        bytes = left;
      }
    },
    /** The connection ended: completes a body read to its close; false when an answer was cut short. */
    end(): boolean {
      if (phase.kind === 'to-close') {
        finish();
        return true;
      }
      return phase.kind === 'head' && pending === undefined;
    },
    /** Whether part of an answer has been read. */
    midAnswer: () => phase.kind !== 'head' || pending !== undefined,
  };
}

export type Http1ResponseReader = ReturnType<typeof createHttp1ResponseReader>;
