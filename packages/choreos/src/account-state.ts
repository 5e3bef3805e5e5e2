/**
 * What a step may reach of the state its run's account keeps outside the run: the account's
 * stored tokens (TokenStorage). The worker gives each run its own account's, so a step can
 * never name another account; the engine only passes it on, and the step library knows nothing
 * of where it is kept.
 */
export interface AccountState {
  readonly account: string;
  readonly tokens: AccountTokens;
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
