import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { CREDENTIAL_RIGHTS, type AccountStore, type PutOutcome } from './account-store.ts';
import { isValidChoreoPattern } from './choreo-patterns.ts';

// Omitted, a credential may run every Choreo; given, the list must name at least one pattern: an
// empty list, or a misspelt key, used to grant everything without a word.
const choreoPatterns = z
  .array(z.string().refine(isValidChoreoPattern, 'is not a Choreo pattern such as /Library/Utilities/**'))
  .min(1, 'must name at least one pattern (omit it for all Choreos)')
  .default(['/**']);

// Strict objects: an unknown key is a typo (`choreo` for `choreos`), and is refused.
export const accountsFileSchema = z.strictObject({
  accounts: z
    .array(
      z.strictObject({
        name: z.string(),
        users: z.array(z.strictObject({ name: z.string(), password: z.string(), choreos: choreoPatterns })).default([]),
        // Rights an application is granted (users hold them all): `presets` lets it write presets,
        // `choreos` write and delete the account's own Choreos.
        apps: z
          .array(z.strictObject({ name: z.string(), key: z.string(), choreos: choreoPatterns, rights: z.array(z.enum(CREDENTIAL_RIGHTS)).optional() }))
          .default([]),
      }),
    )
    .default([]),
  operators: z.array(z.strictObject({ name: z.string(), password: z.string() })).default([]),
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

/** Password hashes checked or made at once while the file is applied: libuv's default thread pool. */
const HASHES_AT_ONCE = 4;

/**
 * Upserts every account, credential and operator of the file; what the file omits is left alone,
 * and so is what the admin command line has changed or revoked since (returned, as
 * `account/user:name`, `account/app:name` or `operator:name`, for the caller to report). What the
 * file says as it said before is left as it is. Each password costs a hash either way, so
 * credentials are applied a few at a time.
 */
export async function applyAccountsFile(store: AccountStore, file: AccountsFile): Promise<string[]> {
  // By credential: one named twice is written once, as the file says it last, as it was when the
  // file was applied in order.
  const byLabel = new Map<string, () => Promise<PutOutcome>>();
  for (const account of file.accounts) {
    await store.createAccount(account.name);
    for (const user of account.users)
      byLabel.set(`${account.name}/user:${user.name}`, () => store.putUser(account.name, user.name, user.password, user.choreos, 'file'));
    for (const app of account.apps)
      byLabel.set(`${account.name}/app:${app.name}`, () => store.putApp(account.name, app.name, app.key, app.choreos, 'file', app.rights ?? []));
  }
  for (const operator of file.operators) byLabel.set(`operator:${operator.name}`, () => store.putOperator(operator.name, operator.password, 'file'));
  const puts = [...byLabel].map(([label, put]) => ({ label, put }));
  const outcomes = new Array<PutOutcome>(puts.length);
  // One iterator shared by every runner: each takes the next put nobody has taken yet.
  const unclaimed = puts.entries();
  const applyNext = async (): Promise<void> => {
    for (const [index, { put }] of unclaimed) outcomes[index] = await put();
  };
  await Promise.all(Array.from({ length: Math.min(HASHES_AT_ONCE, puts.length) }, applyNext));
  return puts.filter((_, index) => outcomes[index] === 'kept').map(({ label }) => label);
}
