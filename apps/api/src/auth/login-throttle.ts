/**
 * Counts failed authentications per client (a client address, or an address and the name it
 * gives: the API keeps one throttle of each), so that one client cannot keep the API hashing
 * guesses: an unknown name or a wrong secret costs a password hash (milliseconds of a libuv thread)
 * by design, and with no limit any client could fill those threads for everyone.
 *
 * Checks that may hash take turns, weighted by the hashes they may cost: the hashes a client has
 * running never exceed the failures it has left (a check alone may go one over), and the other
 * checks wait for them rather than being refused. A burst of parallel guesses thus cannot pass the
 * limit before the first failure is recorded, while an honest burst only waits a moment. Only
 * failures refuse.
 *
 * Per API process: each replica protects its own threads, and needs no Redis round trip for it.
 */
export interface LoginThrottle {
  /** Seconds until `client` may have a secret checked again; 0 when it may now. */
  refusedFor(client: string): number;
  /**
   * Waits for `client`'s turn to run a check that may cost up to `hashes` hashes: a turn to end
   * with `end`, or the seconds until the client may try again when it has run out of failures.
   */
  acquire(client: string, hashes?: number): Promise<Turn | number>;
  /** Ends a turn, with the failures it cost (0 on success). */
  end(turn: Turn, failures: number): void;
}

export interface LoginThrottleOptions {
  /** Failed attempts allowed per client in a window; 0 turns the throttle off. */
  maxFailures: number;
  windowMs?: number;
  /**
   * Clients remembered that are not in the middle of a check; the oldest is forgotten first.
   * Clients in the middle of a check are always remembered: they are bounded by the requests in
   * flight.
   */
  maxClients?: number;
  now?: () => number;
}

/** A turn; it ends in the window it was taken in, whatever the table holds by then. */
export interface Turn {
  readonly client: string;
}

interface ClientWindow {
  readonly client: string;
  startedAt: number;
  failures: number;
  /** Hashes the running checks may cost. */
  inFlight: number;
  running: number;
  waiting: (() => void)[];
  /** Waiters woken that have not looked again yet: the window is still theirs. */
  resuming: number;
}

interface ClientTurn extends Turn {
  readonly window: ClientWindow;
  readonly hashes: number;
  ended: boolean;
}

const UNTHROTTLED: LoginThrottle = { refusedFor: () => 0, acquire: async () => ({ client: '' }), end: () => {} };

export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  if (options.maxFailures <= 0) return UNTHROTTLED;
  const { maxFailures } = options;
  const windowMs = options.windowMs ?? 60_000;
  const maxClients = options.maxClients ?? 100_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, ClientWindow>();
  /** The windows not in use, oldest first: the only ones that may be forgotten. */
  const idle = new Map<string, ClientWindow>();

  const inUse = (window: ClientWindow) => window.running > 0 || window.waiting.length > 0 || window.resuming > 0;

  function forget(window: ClientWindow) {
    if (windows.get(window.client) === window) windows.delete(window.client);
    if (idle.get(window.client) === window) idle.delete(window.client);
  }

  /** Files a window after a change: in use, idle (remembered for its failures), or gone. */
  function settle(window: ClientWindow) {
    if (inUse(window)) {
      if (idle.get(window.client) === window) idle.delete(window.client);
    } else if (window.failures === 0) {
      // A client that has not failed needs no memory between its requests.
      forget(window);
    } else if (windows.get(window.client) === window) {
      idle.delete(window.client);
      idle.set(window.client, window);
      for (const oldest of idle.values()) {
        if (idle.size <= maxClients) break;
        forget(oldest);
      }
    }
  }

  function current(client: string, at: number): ClientWindow | undefined {
    const window = windows.get(client);
    if (!window || at - window.startedAt < windowMs) return window;
    if (!inUse(window)) {
      forget(window);
      return undefined;
    }
    window.startedAt = at;
    window.failures = 0;
    return window;
  }

  function open(client: string, at: number): ClientWindow {
    const window: ClientWindow = { client, startedAt: at, failures: 0, inFlight: 0, running: 0, waiting: [], resuming: 0 };
    windows.set(client, window);
    return window;
  }

  function secondsLeft(window: ClientWindow, at: number): number {
    return Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000));
  }

  /** Wakes as many waiting as may now start, first come first, or all once none may. */
  function wake(window: ClientWindow) {
    const room = maxFailures - window.failures - window.inFlight;
    const count = window.failures >= maxFailures ? window.waiting.length : Math.max(room, window.running === 0 ? 1 : 0);
    const woken = window.waiting.splice(0, count);
    window.resuming += woken.length;
    for (const resume of woken) resume();
  }

  return {
    refusedFor(client) {
      if (windows.size === 0) return 0;
      const at = now();
      const window = current(client, at);
      return window && window.failures >= maxFailures ? secondsLeft(window, at) : 0;
    },

    async acquire(client, hashes = 1) {
      let woken = false;
      for (;;) {
        const at = now();
        const window = current(client, at) ?? open(client, at);
        if (window.failures >= maxFailures) {
          settle(window);
          return secondsLeft(window, at);
        }
        const fits = window.failures + window.inFlight + hashes <= maxFailures || window.running === 0;
        // First come, first served: a newcomer does not pass those already waiting.
        if (fits && (woken || window.waiting.length === 0)) {
          window.inFlight += hashes;
          window.running += 1;
          settle(window);
          const turn: ClientTurn = { client, window, hashes, ended: false };
          return turn;
        }
        await new Promise<void>((resume) => (woken ? window.waiting.unshift(resume) : window.waiting.push(resume)));
        window.resuming -= 1;
        woken = true;
      }
    },

    end(turn, failures) {
      const ended = turn as ClientTurn;
      if (ended.ended) return;
      ended.ended = true;
      const { window, hashes } = ended;
      window.inFlight -= hashes;
      window.running -= 1;
      window.failures += failures;
      wake(window);
      settle(window);
    },
  };
}
