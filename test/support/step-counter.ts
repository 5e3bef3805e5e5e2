import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';

/** One request a Choreo step made: which run (the tag in its URL) and which step. */
export interface StepCall {
  tag: string;
  step: number;
  /** When the call came, epoch milliseconds: a run resumed after a wait must not call early. */
  at: number;
}

/**
 * An HTTP server on 127.0.0.1 that Choreo steps call as their side effect, so that a test can
 * count how often each step of each run really ran. `POST /<tag>/step/<n>` records the call and
 * answers `{"step": n}`; a held step waits for `release`; `/<tag>/hang` never answers; and
 * `/<tag>/flaky/<n>` drops the connection for its first `n` calls.
 */
export class StepCounter {
  readonly calls: StepCall[] = [];
  url = '';
  private readonly server = createServer((req, res) => this.handle(req, res));
  private readonly held = new Map<number, (() => void)[]>();
  private readonly holding = new Set<number>();
  private readonly hanging = new Set<ServerResponse>();
  private readonly flakyCalls = new Map<string, number>();

  async start(): Promise<this> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    const address = this.server.address();
    if (address === null || typeof address === 'string') throw new Error('no address');
    this.url = `http://127.0.0.1:${address.port}`;
    return this;
  }

  /** The base URL a run passes as its CounterURL input. */
  urlFor(tag: string): string {
    return `${this.url}/${tag}`;
  }

  count(tag: string, step?: number): number {
    return this.calls.filter((call) => call.tag === tag && (step === undefined || call.step === step)).length;
  }

  /** Steps of `tag` that were called, in call order. */
  stepsOf(tag: string): number[] {
    return this.calls.filter((call) => call.tag === tag).map((call) => call.step);
  }

  /** When step `step` of `tag` was first called (undefined: never). */
  firstCallAt(tag: string, step: number): number | undefined {
    return this.calls.find((call) => call.tag === tag && call.step === step)?.at;
  }

  /** Calls of step `step` (any run) wait for `release(step)` before they are answered. */
  hold(step: number): void {
    this.holding.add(step);
  }

  release(step: number): void {
    this.holding.delete(step);
    for (const answer of this.held.get(step) ?? []) answer();
    this.held.delete(step);
  }

  async close(): Promise<void> {
    for (const step of [...this.holding]) this.release(step);
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    this.server.close();
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    req.resume();
    const [, tag = '', route = '', value = ''] = (req.url ?? '').split('/');
    const n = Number(value);
    if (route === 'hang') {
      this.calls.push({ tag, step: -1, at: Date.now() });
      this.hanging.add(res);
      return;
    }
    if (route === 'flaky') {
      const seen = (this.flakyCalls.get(tag) ?? 0) + 1;
      this.flakyCalls.set(tag, seen);
      this.calls.push({ tag, step: -2, at: Date.now() });
      if (seen <= n) {
        req.socket.destroy();
        return;
      }
      this.answer(res, { attempt: seen });
      return;
    }
    if (route !== 'step' || !Number.isInteger(n)) {
      res.writeHead(404).end();
      return;
    }
    this.calls.push({ tag, step: n, at: Date.now() });
    if (this.holding.has(n)) {
      const waiting = this.held.get(n) ?? [];
      waiting.push(() => this.answer(res, { step: n }));
      this.held.set(n, waiting);
      return;
    }
    this.answer(res, { step: n });
  }

  private answer(res: ServerResponse, body: unknown): void {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }
}
