import type { CesClient } from '@ces/client';
import type { CliIo } from './cli-io.ts';

/** What every command works with. */
export interface CommandContext {
  client: CesClient;
  io: CliIo;
  /** `--json`: results as JSON on stdout, for scripts; no progress. */
  json: boolean;
  now(): number;
  /** Aborted when the user interrupts (Ctrl-C): a command following a run stops following. */
  signal?: AbortSignal | undefined;
}

/** Writes a result: its JSON form with `--json`, otherwise the lines for people. */
export function emit(context: CommandContext, value: unknown, lines: string[]): void {
  if (context.json) context.io.out(JSON.stringify(value, null, 2));
  else for (const line of lines) context.io.out(line);
}
