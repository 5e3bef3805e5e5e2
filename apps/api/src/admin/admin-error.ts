/** Exit codes of the admin command line. */
export const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

/** The command could not be done (no such account, Redis away…): exit 1 with this message. */
export class AdminError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AdminError';
  }
}

/** The command line itself is wrong: exit 2 with this message and a pointer to `help`. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
