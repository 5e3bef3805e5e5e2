import { describe, expect, it } from 'vitest';
import { createHttp1ResponseReader, type Http1Response, MalformedResponseError, ResponseTooLargeError } from './http1-response-reader.ts';

const limits = { maxBodyBytes: 1_000, keptBodyBytes: 8 };

/** Feeds `text` to a fresh reader in pieces of `size` bytes; the answers it read, bodies as text. */
function read(text: string, size = text.length, options = limits) {
  const answers: { status: number; body: string; keepAlive: boolean }[] = [];
  const reader = createHttp1ResponseReader(options, (answer: Http1Response) =>
    answers.push({ status: answer.status, body: answer.body.toString('latin1'), keepAlive: answer.keepAlive }),
  );
  const bytes = Buffer.from(text, 'latin1');
  for (let at = 0; at < bytes.length; at += size) reader.push(bytes.subarray(at, at + size));
  return { answers, reader };
}

const SIZED = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello';
const CHUNKED = 'HTTP/1.1 410 Gone\r\ntransfer-encoding: chunked\r\n\r\n4;ext=1\r\ngone\r\n5\r\n away\r\n0\r\nx-trailer: 1\r\n\r\n';

describe('HTTP/1.x response reader', () => {
  it('reads sized, chunked, bodiless and interim answers, in order, however the bytes are cut', () => {
    const stream = `HTTP/1.1 100 Continue\r\n\r\n${SIZED}HTTP/1.1 204 No Content\r\n\r\n${CHUNKED}HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n`;
    const whole = read(stream).answers;
    expect(whole).toEqual([
      { status: 200, body: 'hello', keepAlive: true },
      { status: 204, body: '', keepAlive: true },
      { status: 410, body: 'gone awa', keepAlive: true },
      { status: 200, body: '', keepAlive: true },
    ]);
    for (const size of [1, 2, 3, 7, 13]) expect(read(stream, size).answers, `pieces of ${size}`).toEqual(whole);
  });

  it('keeps only the first bytes of a body, and refuses one past the limit', () => {
    expect(read('HTTP/1.1 200 OK\r\ncontent-length: 20\r\n\r\n01234567890123456789').answers[0]?.body).toBe('01234567');
    expect(() => read('HTTP/1.1 200 OK\r\ncontent-length: 20\r\n\r\n01234567890123456789', 4, { maxBodyBytes: 10, keptBodyBytes: 8 })).toThrow(
      ResponseTooLargeError,
    );
    expect(() =>
      read('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n14\r\n01234567890123456789\r\n0\r\n\r\n', 5, { maxBodyBytes: 10, keptBodyBytes: 8 }),
    ).toThrow(ResponseTooLargeError);
    // Refused by its declared length, before a byte of it arrives.
    expect(() => read('HTTP/1.1 200 OK\r\ncontent-length: 11\r\n\r\n', 64, { maxBodyBytes: 10, keptBodyBytes: 8 })).toThrow(ResponseTooLargeError);
  });

  it('says when the server closes the connection, and reads a body without a length to the close', () => {
    expect(read('HTTP/1.1 200 OK\r\nConnection: close\r\ncontent-length: 0\r\n\r\n').answers[0]?.keepAlive).toBe(false);
    expect(read('HTTP/1.0 200 OK\r\ncontent-length: 0\r\n\r\n').answers[0]?.keepAlive).toBe(false);
    expect(read('HTTP/1.0 200 OK\r\nconnection: keep-alive\r\ncontent-length: 0\r\n\r\n').answers[0]?.keepAlive).toBe(true);
    // Every Connection header's tokens count; a header merely ending in "close" is not one.
    expect(read('HTTP/1.1 200 OK\r\nconnection: close\r\nconnection: foo\r\ncontent-length: 0\r\n\r\n').answers[0]?.keepAlive).toBe(false);
    expect(read('HTTP/1.1 200 OK\r\nconnection: x-close\r\ncontent-length: 0\r\n\r\n').answers[0]?.keepAlive).toBe(true);
    // A transfer coding other than chunked last ends the body with the connection, whatever its length says.
    const gzipped = read('HTTP/1.1 200 OK\r\ntransfer-encoding: gzip\r\ncontent-length: 2\r\n\r\nabcdef');
    expect(gzipped.answers).toEqual([]);
    expect(gzipped.reader.end()).toBe(true);
    expect(gzipped.answers).toEqual([{ status: 200, body: 'abcdef', keepAlive: false }]);
    const { answers, reader } = read('HTTP/1.1 200 OK\r\n\r\nto the end');
    expect(answers).toEqual([]);
    expect(reader.end()).toBe(true);
    expect(answers).toEqual([{ status: 200, body: 'to the e', keepAlive: false }]);
  });

  it('knows an answer cut short by the close from a connection closed between answers', () => {
    expect(read(SIZED).reader.end()).toBe(true);
    expect(read(SIZED.slice(0, -2)).reader.end()).toBe(false);
    expect(read(SIZED.slice(0, 10)).reader.end()).toBe(false);
  });

  it('refuses what is not HTTP/1.x, a broken length or chunk, a protocol switch, and a head without end', () => {
    for (const broken of [
      'SSH-2.0-OpenSSH\r\n\r\n',
      'HTTP/2 200\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\ncontent-length: 1\r\ncontent-length: 2\r\n\r\nab',
      'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n2\r\nabXX',
      'HTTP/1.1 101 Switching Protocols\r\n\r\n',
      `HTTP/1.1 200 OK\r\nx: ${'a'.repeat(70_000)}`,
      'HTTP/1.1 200 OK\ncontent-length: 0\n\n',
      `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n0\r\n${'x-trailer: 1\r\n'.repeat(5_000)}`,
    ])
      expect(() => read(broken), broken.slice(0, 40)).toThrow(MalformedResponseError);
  });
});
