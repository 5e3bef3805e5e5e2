/**
 * What a step may reach of the state its run's account keeps outside the run: the account's
 * stored tokens (TokenStorage). The worker gives each run its own account's, so a step can
 * never name another account; the engine only passes it on, and the step library knows nothing
 * of where it is kept.
 */
export interface AccountState {
  readonly account: string;
  readonly tokens: AccountTokens;
  /** The account's callback URLs (Callback); absent where the worker serves none. */
  readonly callbacks?: AccountCallbacks;
}

/** A request a callback URL received, as GetCallbackData returns it. */
export interface CallbackRequest {
  method: string;
  /** Query parameters; a name given twice keeps its last value. */
  query: Record<string, string>;
  headers: Record<string, string>;
  body: string;
  /** ISO 8601. */
  receivedAt: string;
}

export interface AccountCallbacks {
  /**
   * Registers a callback (a random id unless one is given) and answers its public HTTPS URL, which
   * records the requests it receives for ten minutes, and redirects to `forwardingUrl` when given;
   * with `filter`, only requests whose query has that parameter and value are recorded.
   */
  register(options: { id?: string; forwardingUrl?: string; filter?: { name: string; value: string } }): Promise<{ id: string; url: string }>;
  /** The requests a callback of the account received, oldest first. */
  requests(id: string): Promise<CallbackRequest[]>;
  /** The URL of the callback `id`, as `register` answered it (an OAuth redirect URI, say). */
  url(id: string): string;
}

/** A stored token as a step sees it: its value in clear. */
export interface StoredToken {
  value: string;
  valid: boolean;
  locked: boolean;
}

export type LockAttempt = { outcome: 'taken'; token: StoredToken } | { outcome: 'held' } | { outcome: 'absent' };

export interface AccountTokens {
  /** Inserts or replaces a token, valid and unlocked, expiring after `lifetimeSeconds` (0: never). */
  store(name: string, value: string, lifetimeSeconds: number): Promise<void>;
  /** Undefined when there is no such token, or it expired. */
  get(name: string): Promise<StoredToken | undefined>;
  /** Takes the token's lock unless another holder has it. */
  lock(name: string): Promise<LockAttempt>;
  /** False when there is no such token. */
  setValid(name: string, valid: boolean): Promise<boolean>;
  delete(name: string): Promise<boolean>;
}
