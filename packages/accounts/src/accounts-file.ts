import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { AccountStore } from './account-store.ts';

const choreoPatterns = z.array(z.string().startsWith('/')).default(['/**']);

export const accountsFileSchema = z.object({
  accounts: z
    .array(
      z.object({
        name: z.string(),
        users: z.array(z.object({ name: z.string(), password: z.string(), choreos: choreoPatterns })).default([]),
        apps: z.array(z.object({ name: z.string(), key: z.string(), choreos: choreoPatterns })).default([]),
      }),
    )
    .default([]),
  operators: z.array(z.object({ name: z.string(), password: z.string() })).default([]),
});

export type AccountsFile = z.infer<typeof accountsFileSchema>;

export class AccountsFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountsFileError';
  }
}

export async function readAccountsFile(path: string): Promise<AccountsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new AccountsFileError(`cannot read ACCOUNTS_FILE ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // V8's message quotes the text around the fault, which may be a password: only where it is.
    const where = /line \d+ column \d+/.exec((error as Error).message)?.[0];
    throw new AccountsFileError(`ACCOUNTS_FILE ${path} is not JSON${where ? ` (at ${where})` : ''}`);
  }
  const parsed = accountsFileSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new AccountsFileError(`ACCOUNTS_FILE ${path} is not valid: ${problems}`);
  }
  return parsed.data;
}

/** Upserts every account, credential and operator of the file; what the file omits is left alone. */
export async function applyAccountsFile(store: AccountStore, file: AccountsFile): Promise<void> {
  for (const account of file.accounts) {
    await store.createAccount(account.name);
    for (const user of account.users) await store.putUser(account.name, user.name, user.password, user.choreos);
    for (const app of account.apps) await store.putApp(account.name, app.name, app.key, app.choreos);
  }
  for (const operator of file.operators) await store.putOperator(operator.name, operator.password);
}
