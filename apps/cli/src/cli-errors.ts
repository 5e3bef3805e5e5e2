/** Exit statuses of `ces`: a run's ending, or why nothing could be done. */
export const EXIT = {
  /** Done; a run ended `SUCCESS`. */
  ok: 0,
  /** A run ended `ERROR`, or the service refused the command. */
  failed: 1,
  /** A run ended `TERMINATED_MANUALLY` or `TERMINATED_LIMIT`. */
  terminated: 2,
  /** Bad usage or configuration, no connection to the service, or credentials it refused. */
  usage: 3,
  /** Interrupted (Ctrl-C) while following a run, which goes on: as shells report SIGINT. */
  interrupted: 130,
} as const;

/** The command line or its configuration is wrong: exit 3 with this message and a pointer to help. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
