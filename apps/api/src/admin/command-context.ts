import type { AccountStore } from '@ces/accounts';
import type { AccountChoreoStore, ExecutionQueues, ExecutionStore, PresetStore, ScheduleStore, TokenStore, WebhookStore } from '@ces/store';
import type { AdminIo } from './admin-io.ts';

/** What every admin command works with. */
export interface CommandContext {
  accounts: AccountStore;
  executions: ExecutionStore;
  /** The Choreos accounts wrote themselves. */
  choreos: AccountChoreoStore;
  /** The accounts' schedules. */
  schedules: ScheduleStore;
  /** Accounts' presets and stored tokens: absent without SECRETS_KEY. */
  presets?: PresetStore;
  tokens?: TokenStore;
  /** Accounts' webhooks, whose secrets a re-encryption seals again: absent without SECRETS_KEY. */
  webhooks?: WebhookStore;
  /**
   * Seals again under the current key what execution records keep sealed (inputs, secret outputs)
   * with a previous one, and says how many records it changed: absent without SECRETS_KEY.
   */
  resealExecutions?: () => Promise<number>;
  /** Every shard's execution queue, opened on first use: most commands never need them. */
  queues(): ExecutionQueues;
  io: AdminIo;
  /** `--json`: results as one JSON document on stdout, for scripts. */
  json: boolean;
}

/** Writes a result: its JSON form with `--json`, otherwise the lines for people. */
export function emit(context: CommandContext, value: unknown, lines: string[]): void {
  if (context.json) context.io.out(JSON.stringify(value, null, 2));
  else for (const line of lines) context.io.out(line);
}

/** A plain text table: a header and left-aligned columns. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const format = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [format(header), ...rows.map(format)];
}
