/** Where the command line writes and what it reads: the console, or a test's buffers. */
export interface CliIo {
  /** Results, on stdout: what a script may read. */
  out(text: string): void;
  /** Messages and progress, on stderr; written as given (no newline added). */
  err(text: string): void;
  /** Whether stderr is a terminal, so that a live line may be redrawn in place. */
  errIsTerminal: boolean;
  /** The terminal's width, when stderr is one: a live line longer than it would wrap and not redraw in place. */
  errColumns?: number | undefined;
  readFile(path: string): Promise<string>;
}
