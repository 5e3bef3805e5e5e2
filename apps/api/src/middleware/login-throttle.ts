/**
 * Counts failed authentications per client address, so that one client cannot keep the API hashing
 * guesses: an unknown name or a wrong secret costs a password hash (milliseconds of a libuv thread)
 * by design, and with no limit any client could fill those threads for everyone. Attempts still in
 * flight count against the limit too, or a burst of parallel guesses would all pass the check before
 * the first failure is recorded.
 *
 * Per API process: each replica protects its own threads, and needs no Redis round trip for it.
 */
export interface LoginThrottle {
  /**
   * Starts an attempt from `client`: 0 when it may go on (and must be ended with `end`), otherwise
   * the seconds until the client may try again.
   */
  begin(client: string): number;
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
}

const UNTHROTTLED: LoginThrottle = { begin: () => 0, end: () => {} };

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
    if (window.inFlight === 0) {
      windows.delete(client);
      return undefined;
    }
    window.startedAt = at;
    window.failures = 0;
    return window;
  }

  return {
    begin(client) {
      const at = now();
      let window = current(client, at);
      if (window && window.failures + window.inFlight >= maxFailures) {
        return Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000));
      }
      if (!window) {
        if (windows.size >= maxClients) windows.delete(windows.keys().next().value!);
        window = { startedAt: at, failures: 0, inFlight: 0 };
        windows.set(client, window);
      }
      window.inFlight += 1;
      return 0;
    },

    end(client, failed) {
      const window = windows.get(client);
      if (!window) return;
      window.inFlight = Math.max(0, window.inFlight - 1);
      if (failed) window.failures += 1;
      // A client that has not failed needs no memory between its requests.
      if (window.failures === 0 && window.inFlight === 0) windows.delete(client);
    },
  };
}
