/** Where the admin command line writes and reads: the console, or a test's buffers. */
export interface AdminIo {
  /** Results, on stdout: what a script may read. */
  out(text: string): void;
  /** Messages and progress, on stderr. */
  err(text: string): void;
  /** Whether stderr is a terminal, so that progress may redraw one line. */
  errIsTerminal: boolean;
  readStdin(): Promise<string>;
}

export function consoleIo(): AdminIo {
  return {
    out: (text) => process.stdout.write(`${text}\n`),
    err: (text) => process.stderr.write(text.endsWith('\r') ? text : `${text}\n`),
    errIsTerminal: Boolean(process.stderr.isTTY),
    async readStdin() {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
      return Buffer.concat(chunks).toString('utf8');
    },
  };
}
