/**
 * Counts failed authentications per client address, so that one client cannot keep the API hashing
 * guesses: an unknown name or a wrong secret costs a password hash (milliseconds of a libuv thread)
 * by design, and with no limit any client could fill those threads for everyone.
 *
 * Checks that may hash take turns: a client has at most as many running as it has failures left,
 * and the others wait for them rather than being refused. A burst of parallel guesses thus cannot
 * pass the limit before the first failure is recorded, while an honest burst (every request of a
 * busy client arriving as its remembered verification expires) only waits a moment, and then finds
 * the verification remembered again. Only failures refuse.
 *
 * Per API process: each replica protects its own threads, and needs no Redis round trip for it.
 */
export interface LoginThrottle {
  /** Seconds until `client` may have a secret checked again; 0 when it may now. */
  refusedFor(client: string): number;
  /**
   * Waits for `client`'s turn to check a secret: 0 once it has the turn (end it with `end`), or the
   * seconds until the client may try again when it has run out of failures meanwhile.
   */
  acquire(client: string): Promise<number>;
  end(client: string, failed: boolean): void;
}

export interface LoginThrottleOptions {
  /** Failed attempts allowed per client in a window; 0 turns the throttle off. */
  maxFailures: number;
  windowMs?: number;
  /** Clients remembered at most; the oldest window is forgotten first. */
  maxClients?: number;
  now?: () => number;
}

interface ClientWindow {
  startedAt: number;
  failures: number;
  inFlight: number;
  waiting: (() => void)[];
}

const UNTHROTTLED: LoginThrottle = { refusedFor: () => 0, acquire: async () => 0, end: () => {} };

export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  if (options.maxFailures <= 0) return UNTHROTTLED;
  const { maxFailures } = options;
  const windowMs = options.windowMs ?? 60_000;
  const maxClients = options.maxClients ?? 100_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, ClientWindow>();

  function current(client: string, at: number): ClientWindow | undefined {
    const window = windows.get(client);
    if (!window || at - window.startedAt < windowMs) return window;
    if (window.inFlight === 0 && window.waiting.length === 0) {
      windows.delete(client);
      return undefined;
    }
    window.startedAt = at;
    window.failures = 0;
    return window;
  }

  function secondsLeft(window: ClientWindow, at: number): number {
    return Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000));
  }

  function wake(window: ClientWindow) {
    // Each one checks again: some may take a turn, or all be refused once failures ran out.
    for (const resume of window.waiting.splice(0)) resume();
  }

  return {
    refusedFor(client) {
      if (windows.size === 0) return 0;
      const at = now();
      const window = current(client, at);
      return window && window.failures >= maxFailures ? secondsLeft(window, at) : 0;
    },

    async acquire(client) {
      for (;;) {
        const at = now();
        let window = current(client, at);
        if (!window) {
          if (windows.size >= maxClients) {
            const [oldest, forgotten] = windows.entries().next().value!;
            windows.delete(oldest);
            wake(forgotten);
          }
          window = { startedAt: at, failures: 0, inFlight: 0, waiting: [] };
          windows.set(client, window);
        }
        if (window.failures >= maxFailures) return secondsLeft(window, at);
        if (window.failures + window.inFlight < maxFailures) {
          window.inFlight += 1;
          return 0;
        }
        await new Promise<void>((resume) => window.waiting.push(resume));
      }
    },

    end(client, failed) {
      const window = windows.get(client);
      if (!window) return;
      window.inFlight = Math.max(0, window.inFlight - 1);
      if (failed) window.failures += 1;
      wake(window);
      // A client that has not failed needs no memory between its requests.
      if (window.failures === 0 && window.inFlight === 0 && window.waiting.length === 0) windows.delete(client);
    },
  };
}
