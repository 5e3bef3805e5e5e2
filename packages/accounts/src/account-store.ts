import type { ChainableCommander, Redis } from 'ioredis';
import type { KeySpace } from '@ces/store';
import { digestKey, generateKey, hashPassword, MIN_KEY_LENGTH } from './secrets.ts';

export type CredentialKind = 'user' | 'app';

/** What is stored per credential: never the secret itself. */
export interface StoredCredential {
  /** `scrypt$…` for users, `sha256$…` for applications. */
  secretHash: string;
  /** Choreo patterns this credential may access. */
  choreos: string[];
  created: number;
}

export interface CredentialSummary {
  kind: CredentialKind;
  name: string;
  choreos: string[];
  created: number;
}

export const ACCOUNT_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const CREDENTIAL_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;

export class AccountError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AccountError';
  }
}

export interface AccountStore {
  createAccount(name: string): Promise<boolean>;
  accountExists(name: string): Promise<boolean>;
  listAccounts(): Promise<string[]>;
  putUser(account: string, name: string, password: string, choreos: string[]): Promise<void>;
  putApp(account: string, name: string, key: string, choreos: string[]): Promise<void>;
  /** Creates or replaces an application's key; the new key is returned once and never stored. */
  issueAppKey(account: string, name: string, choreos?: string[]): Promise<string>;
  revokeApp(account: string, name: string): Promise<boolean>;
  getCredential(account: string, kind: CredentialKind, name: string): Promise<StoredCredential | undefined>;
  listCredentials(account: string): Promise<CredentialSummary[]>;
  putOperator(name: string, password: string): Promise<void>;
  getOperator(name: string): Promise<StoredCredential | undefined>;
  listOperators(): Promise<string[]>;
}

export function createAccountStore(deps: { redis: Redis; keys: KeySpace }): AccountStore {
  const { redis, keys } = deps;

  function credentialsKey(account: string, kind: CredentialKind) {
    return kind === 'user' ? keys.accountUsers(account) : keys.accountApps(account);
  }

  function checkAccountName(name: string) {
    if (!ACCOUNT_NAME.test(name)) {
      throw new AccountError(`invalid account name "${name}": lowercase letters, digits and dashes, at most 63`);
    }
  }

  function checkCredentialName(name: string) {
    if (!CREDENTIAL_NAME.test(name)) {
      throw new AccountError(`invalid name "${name}": letters, digits and . _ @ -, at most 128`);
    }
  }

  async function requireAccount(name: string) {
    if (!(await redis.sismember(keys.accounts(), name))) throw new AccountError(`no account named "${name}"`);
  }

  /**
   * Changes one credential and announces it in one transaction: API processes remember credential
   * records until told otherwise, so a change without its message would go unnoticed there. Returns
   * the reply to `change`.
   */
  async function changeCredential(key: string, name: string, change: (multi: ChainableCommander) => ChainableCommander) {
    const replies = await change(redis.multi())
      .publish(keys.credentialsChangedChannel(), `${key}\n${name}`)
      .exec();
    if (!replies) throw new Error(`the change to "${name}" in ${key} was not applied`);
    const failure = replies.find(([error]) => error)?.[0];
    if (failure) throw failure;
    return replies[0]![1];
  }

  async function putCredential(account: string, kind: CredentialKind, name: string, secretHash: string, choreos: string[]) {
    checkCredentialName(name);
    await requireAccount(account);
    const record: StoredCredential = { secretHash, choreos: choreos.length > 0 ? choreos : ['/**'], created: Date.now() };
    const key = credentialsKey(account, kind);
    await changeCredential(key, name, (multi) => multi.hset(key, name, JSON.stringify(record)));
  }

  async function readCredential(key: string, name: string): Promise<StoredCredential | undefined> {
    const json = await redis.hget(key, name);
    return json === null ? undefined : (JSON.parse(json) as StoredCredential);
  }

  return {
    async createAccount(name) {
      checkAccountName(name);
      const created = await redis
        .multi()
        .sadd(keys.accounts(), name)
        .hsetnx(keys.account(name), 'created', String(Date.now()))
        .exec();
      return created?.[0]?.[1] === 1;
    },

    async accountExists(name) {
      return (await redis.sismember(keys.accounts(), name)) === 1;
    },

    async listAccounts() {
      return (await redis.smembers(keys.accounts())).sort();
    },

    async putUser(account, name, password, choreos) {
      if (password.length < 8) throw new AccountError('a password needs at least 8 characters');
      await putCredential(account, 'user', name, await hashPassword(password), choreos);
    },

    async putApp(account, name, key, choreos) {
      if (key.length < MIN_KEY_LENGTH) throw new AccountError(`an application key needs at least ${MIN_KEY_LENGTH} characters`);
      await putCredential(account, 'app', name, digestKey(key), choreos);
    },

    async issueAppKey(account, name, choreos) {
      const existing = await readCredential(keys.accountApps(account), name);
      const key = generateKey();
      await putCredential(account, 'app', name, digestKey(key), choreos ?? existing?.choreos ?? ['/**']);
      return key;
    },

    async revokeApp(account, name) {
      // Announced even when there was nothing to delete: it also clears a record that was removed
      // by hand and is still remembered.
      const key = keys.accountApps(account);
      return (await changeCredential(key, name, (multi) => multi.hdel(key, name))) === 1;
    },

    getCredential(account, kind, name) {
      return readCredential(credentialsKey(account, kind), name);
    },

    async listCredentials(account) {
      const [users, apps] = await Promise.all([redis.hgetall(keys.accountUsers(account)), redis.hgetall(keys.accountApps(account))]);
      const summaries: CredentialSummary[] = [];
      for (const [kind, entries] of [['user', users], ['app', apps]] as const) {
        for (const [name, json] of Object.entries(entries)) {
          const { choreos, created } = JSON.parse(json) as StoredCredential;
          summaries.push({ kind, name, choreos, created });
        }
      }
      return summaries.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
    },

    async putOperator(name, password) {
      checkCredentialName(name);
      if (password.length < 8) throw new AccountError('a password needs at least 8 characters');
      const record: StoredCredential = { secretHash: await hashPassword(password), choreos: [], created: Date.now() };
      const key = keys.operators();
      await changeCredential(key, name, (multi) => multi.hset(key, name, JSON.stringify(record)));
    },

    getOperator(name) {
      return readCredential(keys.operators(), name);
    },

    async listOperators() {
      return (await redis.hkeys(keys.operators())).sort();
    },
  };
}
