/**
 * Counts failed authentications per client address, so that one client cannot keep the API hashing
 * guesses: an unknown name or a wrong secret costs a password hash (milliseconds of a libuv thread)
 * by design, and with no limit any client could fill those threads for everyone.
 *
 * Checks that may hash take turns: a client has at most as many running as it has failures left,
 * and the others wait for them rather than being refused. A burst of parallel guesses thus cannot
 * pass the limit before the first failure is recorded, while an honest burst only waits a moment.
 * Only failures refuse.
 *
 * Per API process: each replica protects its own threads, and needs no Redis round trip for it.
 */
export interface LoginThrottle {
  /** Seconds until `client` may have a secret checked again; 0 when it may now. */
  refusedFor(client: string): number;
  /**
   * Waits for `client`'s turn to check a secret: a turn to end with `end`, or the seconds until the
   * client may try again when it has run out of failures meanwhile.
   */
  acquire(client: string): Promise<Turn | number>;
  /** Ends a turn, with the failures it cost (a check may cost more than one hash). */
  end(turn: Turn, failures: number): void;
}

export interface LoginThrottleOptions {
  /** Failed attempts allowed per client in a window; 0 turns the throttle off. */
  maxFailures: number;
  windowMs?: number;
  /** Clients remembered at most; the oldest window that is not in use is forgotten first. */
  maxClients?: number;
  now?: () => number;
}

/** One client's window; a turn holds the window it was taken in, whatever the map holds since. */
export interface Turn {
  readonly client: string;
}

interface ClientWindow extends Turn {
  startedAt: number;
  failures: number;
  inFlight: number;
  waiting: (() => void)[];
}

/** Windows looked at for one that may be forgotten when the map is full. */
const EVICTION_SCAN = 8;

const UNTHROTTLED: LoginThrottle = { refusedFor: () => 0, acquire: async () => ({ client: '' }), end: () => {} };

export function createLoginThrottle(options: LoginThrottleOptions): LoginThrottle {
  if (options.maxFailures <= 0) return UNTHROTTLED;
  const { maxFailures } = options;
  const windowMs = options.windowMs ?? 60_000;
  const maxClients = options.maxClients ?? 100_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, ClientWindow>();

  const inUse = (window: ClientWindow) => window.inFlight > 0 || window.waiting.length > 0;

  function current(client: string, at: number): ClientWindow | undefined {
    const window = windows.get(client);
    if (!window || at - window.startedAt < windowMs) return window;
    if (!inUse(window)) {
      windows.delete(client);
      return undefined;
    }
    window.startedAt = at;
    window.failures = 0;
    return window;
  }

  /**
   * A new window, remembered when there is room or an old one not in use can be forgotten. Under a
   * flood of distinct clients it may not be remembered: its count then starts afresh next time,
   * which a client can only get by being one of maxClients.
   */
  function open(client: string, at: number): ClientWindow {
    const window: ClientWindow = { client, startedAt: at, failures: 0, inFlight: 0, waiting: [] };
    if (windows.size >= maxClients) {
      let scanned = 0;
      for (const [name, old] of windows) {
        if (!inUse(old)) {
          windows.delete(name);
          break;
        }
        if ((scanned += 1) >= EVICTION_SCAN) break;
      }
    }
    if (windows.size < maxClients) windows.set(client, window);
    return window;
  }

  function secondsLeft(window: ClientWindow, at: number): number {
    return Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000));
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
        const window = current(client, at) ?? open(client, at);
        if (window.failures >= maxFailures) return secondsLeft(window, at);
        if (window.failures + window.inFlight < maxFailures) {
          window.inFlight += 1;
          return window;
        }
        await new Promise<void>((resume) => window.waiting.push(resume));
      }
    },

    end(turn, failures) {
      const window = turn as ClientWindow;
      window.inFlight = Math.max(0, window.inFlight - 1);
      window.failures += failures;
      // Each one checks again: some may take a turn, or all be refused once failures ran out.
      for (const resume of window.waiting.splice(0)) resume();
      // A client that has not failed needs no memory between its requests.
      if (window.failures === 0 && window.inFlight === 0 && windows.get(window.client) === window) windows.delete(window.client);
    },
  };
}
