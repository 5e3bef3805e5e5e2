import { connect as connectTcp, type LookupFunction, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';
import { createHttp1ResponseReader, type Http1Response, type Http1ResponseLimits } from './http1-response-reader.ts';

/** One request on its way: its bytes, and who hears of its answer. */
export interface PipelinedRequest {
  readonly bytes: Buffer;
  /** Its answer; it is not called again after `fail`, nor `fail` after it. */
  answered(response: Http1Response): void;
  /**
   * The connection was lost before the request's answer: `connected` says whether it ever was
   * (else the endpoint is unreachable, refused or untrusted), `sent` whether the request's bytes
   * were written.
   */
  unanswered(error: Error, how: { connected: boolean; sent: boolean }): void;
}

/** What a request behind another is told when the other's answer or deadline ended their connection. */
export class LostBehindError extends Error {}

/** The server closed the connection after an answer, with requests behind it that it never read. */
export class ClosedAfterAnswerError extends LostBehindError {}

export interface ConnectionTarget {
  tls: boolean;
  host: string;
  port: number;
  /** The TLS server name: the host, unless it is an IP address. */
  servername: string | undefined;
  lookup: LookupFunction;
}

/** How long the first request of a write waits for others to go with it. */
const FLUSH_AFTER_MS = 1;

/** How long a connection with nothing in flight is kept for the next request. */
const IDLE_MS = 4_000;

/**
 * One HTTP/1.1 connection that carries its requests pipelined: the requests given to it within a
 * millisecond are written together, in one system call and one TLS record, and their
 * answers read in order. A connection that fails (refused, reset, closed by its server, a broken
 * answer) tells every request it had not answered, and is then done; so is one whose server said
 * it would close it, once its answer is read.
 */
export class PipelinedConnection {
  /** Requests written or to be written, in order, not yet answered. */
  private readonly inFlight: PipelinedRequest[] = [];
  /** How many of `inFlight` (its first ones) have been written. */
  private written = 0;
  private flushing = false;
  private connected = false;
  private idleTimer: NodeJS.Timeout | undefined;
  private readonly socket: Socket;
  private done = false;
  /** False once it takes no more requests. */
  open = true;

  private readonly onDone: (connection: PipelinedConnection) => void;

  constructor(target: ConnectionTarget, limits: Http1ResponseLimits, onDone: (connection: PipelinedConnection) => void) {
    this.onDone = onDone;
    // Answers are collected as the reader finds them and handed out once it is done with the
    // bytes: what their requests' callbacks throw is not taken for a broken answer.
    const read: Http1Response[] = [];
    const reader = createHttp1ResponseReader(limits, (response) => read.push(response));
    const options = { host: target.host, port: target.port, lookup: target.lookup };
    this.socket = target.tls
      ? connectTls({ ...options, servername: target.servername, ALPNProtocols: ['http/1.1'] }, () => this.connect())
      : connectTcp(options, () => this.connect());
    this.socket.setNoDelay(true);
    this.socket.on('data', (chunk: Buffer) => {
      let broken: Error | undefined;
      try {
        reader.push(chunk);
      } catch (error) {
        broken = error as Error;
      }
      for (const response of read.splice(0)) this.answer(response);
      // The answer being read is broken or too large: its request fails, those behind it are lost.
      if (broken) this.fail(broken, true);
    });
    this.socket.on('end', () => {
      // A body read to the close is complete; anything else in flight goes unanswered.
      reader.end();
      for (const response of read.splice(0)) this.answer(response);
      this.fail(new Error('the server closed the connection'));
    });
    this.socket.on('error', (error) => this.fail(error));
    this.socket.on('close', () => this.fail(new Error('the connection closed')));
  }

  /** Requests in flight on it. */
  get load(): number {
    return this.inFlight.length;
  }

  /** Queues `request` to be written with the others of this turn. */
  send(request: PipelinedRequest): void {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
      this.socket.ref();
    }
    this.inFlight.push(request);
    if (this.connected && !this.flushing) {
      this.flushing = true;
      // A millisecond gathers the requests of a few turns into one write: each write to the
      // endpoint costs both ends about as much as the requests in it.
      setTimeout(() => this.flush(), FLUSH_AFTER_MS);
    }
  }

  /** Gives the connection up: what it had not answered is told so. */
  destroy(error: Error): void {
    this.fail(error);
  }

  private connect() {
    this.connected = true;
    this.flush();
  }

  private flush() {
    this.flushing = false;
    if (!this.open || this.written === this.inFlight.length) return;
    const batch = this.inFlight.slice(this.written).map((request) => request.bytes);
    this.written = this.inFlight.length;
    this.socket.write(batch.length === 1 ? (batch[0] as Buffer) : Buffer.concat(batch));
  }

  private answer(response: Http1Response) {
    if (this.done) return;
    // An answer before any request was written (a 408 on an idle connection): those queued were never sent.
    const request = this.written > 0 ? this.inFlight.shift() : undefined;
    if (!request) {
      this.fail(new Error('an answer to no request'));
      return;
    }
    this.written -= 1;
    if (!response.keepAlive) {
      // The server closes after this answer: the requests behind it were never read.
      this.open = false;
    }
    request.answered(response);
    if (!response.keepAlive) this.fail(new ClosedAfterAnswerError('the server closed the connection after an answer'));
    else if (this.inFlight.length === 0) this.idle();
  }

  private idle() {
    // Nothing in flight keeps the process alive, and a connection unused for a while is closed.
    this.socket.unref();
    this.idleTimer = setTimeout(() => this.fail(new Error('idle')), IDLE_MS);
    this.idleTimer.unref();
  }

  /** Ends the connection; `first` when only the first request in flight failed with `error`. */
  private fail(error: Error, first = false) {
    if (this.done) return;
    this.done = true;
    this.open = false;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    const left = this.inFlight.splice(0);
    const written = this.written;
    this.written = 0;
    this.socket.destroy();
    this.onDone(this);
    const connected = this.connected;
    const behind = first ? new LostBehindError(`a request ahead failed: ${error.message}`) : error;
    left.forEach((request, index) => {
      request.unanswered(index === 0 ? error : behind, { connected, sent: index < written });
    });
  }
}
