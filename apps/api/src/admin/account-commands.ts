import { generateKey, type CredentialRight } from '@ces/accounts';
import { AdminError } from './admin-error.ts';
import { emit, table, type CommandContext } from './command-context.ts';
import { startProgress } from './progress.ts';

/** Account, user, application-key and operator commands. Secrets are shown once and never stored in clear. */

async function requireAccount(context: CommandContext, account: string) {
  if (!(await context.accounts.accountExists(account))) throw new AdminError(`no account named "${account}"`);
}

export async function createAccount(context: CommandContext, account: string) {
  if (!(await context.accounts.createAccount(account))) throw new AdminError(`account "${account}" exists already`);
  emit(context, { account, created: true }, [`Created account "${account}".`]);
}

export async function listAccounts(context: CommandContext) {
  const names = await context.accounts.listAccounts();
  const progress = startProgress(context.io, 'reading accounts', names.length);
  const rows: { account: string; users: number; apps: number; running: number }[] = [];
  for (const account of names) {
    const [credentials, running] = await Promise.all([context.accounts.listCredentials(account), context.executions.countRunning(account)]);
    rows.push({
      account,
      users: credentials.filter((c) => c.kind === 'user').length,
      apps: credentials.filter((c) => c.kind === 'app').length,
      running,
    });
    progress.advance();
  }
  progress.done();
  emit(
    context,
    { accounts: rows },
    rows.length === 0
      ? ['No accounts.']
      : table(
          ['ACCOUNT', 'USERS', 'APPS', 'RUNNING'],
          rows.map((r) => [r.account, String(r.users), String(r.apps), String(r.running)]),
        ),
  );
}

export async function showAccount(context: CommandContext, account: string) {
  await requireAccount(context, account);
  const credentials = await context.accounts.listCredentials(account);
  emit(
    context,
    { account, credentials: credentials.map((c) => ({ ...c, created: new Date(c.created).toISOString() })) },
    credentials.length === 0
      ? [`Account "${account}" has no users or applications.`]
      : table(
          ['KIND', 'NAME', 'CHOREOS', 'RIGHTS', 'CREATED'],
          credentials.map((c) => [c.kind, c.name, c.choreos.join(','), c.rights.join(','), new Date(c.created).toISOString()]),
        ),
  );
}

/** `choreos` undefined: a new user may run every Choreo, an existing one keeps its patterns. */
export async function addUser(context: CommandContext, account: string, user: string, requested: string[] | undefined, password?: string) {
  await requireAccount(context, account);
  const existing = await context.accounts.getCredential(account, 'user', user);
  const existed = existing !== undefined;
  const choreos = requested ?? existing?.choreos ?? ['/**'];
  const secret = password ?? generateKey();
  await context.accounts.putUser(account, user, secret, choreos);
  const verb = existed ? 'Updated' : 'Added';
  emit(context, { account, user, choreos, ...(existed ? { updated: true } : { created: true }), ...(password === undefined ? { password: secret } : {}) }, [
    `${verb} user "${user}" in account "${account}" (Choreos: ${choreos.join(', ')}).`,
    ...(password === undefined ? ['Its password is shown this once; store it now:', secret] : []),
  ]);
}

export async function createKey(context: CommandContext, account: string, app: string, choreos: string[], rights: CredentialRight[] = []) {
  await requireAccount(context, account);
  if (await context.accounts.getCredential(account, 'app', app)) {
    throw new AdminError(`application "${app}" exists already in account "${account}"; use \`keys rotate\` for a new key`);
  }
  const key = await context.accounts.issueAppKey(account, app, choreos, rights);
  emit(context, { account, app, choreos, rights, key }, [
    `Created application "${app}" in account "${account}" (Choreos: ${choreos.join(', ')}; rights: ${rights.join(', ') || 'none'}).`,
    'Its key is shown this once; store it now:',
    key,
  ]);
}

export async function rotateKey(context: CommandContext, account: string, app: string, choreos?: string[], rights?: CredentialRight[]) {
  await requireAccount(context, account);
  const existing = await context.accounts.getCredential(account, 'app', app);
  if (!existing) throw new AdminError(`no application "${app}" in account "${account}"; use \`keys create\``);
  const patterns = choreos ?? existing.choreos;
  const granted = rights ?? existing.rights ?? [];
  const key = await context.accounts.issueAppKey(account, app, patterns, granted);
  emit(context, { account, app, choreos: patterns, rights: granted, key }, [
    `New key for application "${app}" in account "${account}"; the old key no longer works.`,
    'It is shown this once; store it now:',
    key,
  ]);
}

export async function revokeKey(context: CommandContext, account: string, app: string) {
  await requireAccount(context, account);
  if (!(await context.accounts.revokeCredential(account, 'app', app))) throw new AdminError(`no application "${app}" in account "${account}"`);
  emit(context, { account, app, revoked: true }, [`Revoked application "${app}" of account "${account}"; its key no longer works.`]);
}

export async function addOperator(context: CommandContext, name: string, password?: string) {
  const existed = (await context.accounts.getOperator(name)) !== undefined;
  const secret = password ?? generateKey();
  await context.accounts.putOperator(name, secret);
  emit(context, { operator: name, ...(existed ? { updated: true } : { created: true }), ...(password === undefined ? { password: secret } : {}) }, [
    `${existed ? 'Updated' : 'Added'} operator "${name}".`,
    ...(password === undefined ? ['Its password is shown this once; store it now:', secret] : []),
  ]);
}

export async function removeUser(context: CommandContext, account: string, user: string) {
  await requireAccount(context, account);
  if (!(await context.accounts.revokeCredential(account, 'user', user))) throw new AdminError(`no user "${user}" in account "${account}"`);
  emit(context, { account, user, removed: true }, [`Removed user "${user}" of account "${account}"; its password no longer works.`]);
}

export async function removeOperator(context: CommandContext, name: string) {
  if (!(await context.accounts.revokeOperator(name))) throw new AdminError(`no operator "${name}"`);
  emit(context, { operator: name, removed: true }, [`Removed operator "${name}"; its password no longer works.`]);
}

export async function listOperators(context: CommandContext) {
  const operators = await context.accounts.listOperators();
  emit(context, { operators }, operators.length === 0 ? ['No operators.'] : operators);
}
