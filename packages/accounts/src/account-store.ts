import type { ChainableCommander, Redis } from 'ioredis';
import type { KeySpace } from '@ces/store';
import { digestKey, generateKey, hashPassword, MIN_KEY_LENGTH, verifyKey, verifyPassword } from './secrets.ts';

export type CredentialKind = 'user' | 'app';

/**
 * What a credential may do besides running and reading Choreos. Users hold every right; an
 * application holds only those granted to it: a program's key, copied into many places, should
 * not be able to change what the account's runs are given (`presets`) or what its Choreos do
 * (`choreos`: write and delete the account's own) unless meant to.
 */
export const CREDENTIAL_RIGHTS = ['choreos', 'presets', 'schedules', 'webhooks'] as const;
export type CredentialRight = (typeof CREDENTIAL_RIGHTS)[number];

/**
 * Who last wrote a credential. The accounts file is applied at every start of every API process;
 * what the admin command line has changed since (a rotated key, a revoked one, a new password) it
 * leaves alone, or a restart would bring a revoked key back.
 */
export type CredentialSource = 'file' | 'admin';

/** What is stored per credential: never the secret itself. */
export interface StoredCredential {
  /** `scrypt$…` for users, `sha256$…` for applications; '' once revoked. */
  secretHash: string;
  /** Choreo patterns this credential may access. */
  choreos: string[];
  created: number;
  /** Absent in records written before it was kept: the file's, as they all were then. */
  source?: CredentialSource;
  /** Revoked with the admin command line: kept, empty, so that the accounts file cannot revive it. */
  revoked?: true;
  /** An application's granted rights (CREDENTIAL_RIGHTS); absent: none. Users hold them all. */
  rights?: CredentialRight[];
}

/**
 * `kept`: the accounts file's write was skipped, the admin command line having changed it since;
 * `unchanged`: the accounts file says what it wrote before, so nothing was written.
 */
export type PutOutcome = 'written' | 'kept' | 'unchanged';

export interface CredentialSummary {
  kind: CredentialKind;
  name: string;
  choreos: string[];
  created: number;
  rights: CredentialRight[];
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
  putUser(account: string, name: string, password: string, choreos: string[], source?: CredentialSource): Promise<PutOutcome>;
  putApp(account: string, name: string, key: string, choreos: string[], source?: CredentialSource, rights?: CredentialRight[]): Promise<PutOutcome>;
  /**
   * Creates or replaces an application's key; the new key is returned once and never stored.
   * Patterns and rights not given are kept from the application it replaces.
   */
  issueAppKey(account: string, name: string, choreos?: string[], rights?: CredentialRight[]): Promise<string>;
  /**
   * Removes a user or an application: its secret stops working from the next request, and the
   * accounts file cannot bring it back. False when there was no such live credential.
   */
  revokeCredential(account: string, kind: CredentialKind, name: string): Promise<boolean>;
  getCredential(account: string, kind: CredentialKind, name: string): Promise<StoredCredential | undefined>;
  listCredentials(account: string): Promise<CredentialSummary[]>;
  putOperator(name: string, password: string, source?: CredentialSource): Promise<PutOutcome>;
  getOperator(name: string): Promise<StoredCredential | undefined>;
  /** Removes an operator, as `revokeCredential` does a user. */
  revokeOperator(name: string): Promise<boolean>;
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
    const replies = await change(redis.multi()).publish(keys.credentialsChangedChannel(), `${key}\n${name}`).exec();
    if (!replies) throw new Error(`the change to "${name}" in ${key} was not applied`);
    const failure = replies.find(([error]) => error)?.[0];
    if (failure) throw failure;
    return replies[0]?.[1];
  }

  /**
   * Writes a credential record, unless the accounts file writes over what the admin command line
   * changed. The read and the write are not one transaction: the file is applied at start, and a
   * command run in that same instant may be written over; running it again settles it.
   */
  async function writeCredential(key: string, name: string, record: StoredCredential): Promise<PutOutcome> {
    if (record.source === 'file' && (await readRecord(key, name))?.source === 'admin') return 'kept';
    await changeCredential(key, name, (multi) => multi.hset(key, name, JSON.stringify(record)));
    return 'written';
  }

  async function putCredential(
    account: string,
    kind: CredentialKind,
    name: string,
    secretHash: string,
    choreos: string[],
    source: CredentialSource,
    rights: CredentialRight[] = [],
  ) {
    checkCredentialName(name);
    await requireAccount(account);
    const record: StoredCredential = {
      secretHash,
      choreos: patternsOrAll(choreos),
      created: Date.now(),
      source,
      ...(kind === 'app' && rights.length > 0 ? { rights: [...new Set(rights)].sort() } : {}),
    };
    return writeCredential(credentialsKey(account, kind), name, record);
  }

  /**
   * Whether the accounts file says again what it wrote last: the same secret (checked against the
   * stored hash, as a login is) and the same patterns. Then nothing need be written, or announced.
   * Written again, a password got a new salt, hence a new stored hash, which voids what every API
   * process remembers of its checks: each restart of an API made every user of the file pay a
   * password hash again on every API, and held the start for a new hash per user.
   */
  async function fileWroteAlready(
    key: string,
    name: string,
    choreos: string[],
    secretMatches: (stored: StoredCredential) => boolean | Promise<boolean>,
    rights: CredentialRight[] = [],
  ) {
    const stored = await readRecord(key, name);
    if (!stored || stored.revoked || (stored.source ?? 'file') !== 'file') return false;
    if (stored.choreos.length !== choreos.length || stored.choreos.some((pattern, i) => pattern !== choreos[i])) return false;
    if ((stored.rights ?? []).join(',') !== [...new Set(rights)].sort().join(',')) return false;
    return secretMatches(stored);
  }

  async function readRecord(key: string, name: string): Promise<StoredCredential | undefined> {
    const json = await redis.hget(key, name);
    return json === null ? undefined : (JSON.parse(json) as StoredCredential);
  }

  async function revoke(key: string, name: string): Promise<boolean> {
    // A tombstone rather than a deletion, so that the accounts file cannot bring the secret back.
    // Announced even when there was nothing live: it also clears a record still remembered.
    const live = (await readCredential(key, name)) !== undefined;
    const tombstone: StoredCredential = { secretHash: '', choreos: [], created: Date.now(), source: 'admin', revoked: true };
    // Only over a live record: a name never used (a typo) must not bar the accounts file from it.
    await changeCredential(key, name, (multi) => (live ? multi.hset(key, name, JSON.stringify(tombstone)) : multi));
    return live;
  }

  /** A live credential: a revoked one is as good as absent. */
  async function readCredential(key: string, name: string): Promise<StoredCredential | undefined> {
    const record = await readRecord(key, name);
    return record?.revoked ? undefined : record;
  }

  return {
    async createAccount(name) {
      checkAccountName(name);
      const created = await redis.multi().sadd(keys.accounts(), name).hsetnx(keys.account(name), 'created', String(Date.now())).exec();
      return created?.[0]?.[1] === 1;
    },

    async accountExists(name) {
      return (await redis.sismember(keys.accounts(), name)) === 1;
    },

    async listAccounts() {
      return (await redis.smembers(keys.accounts())).sort();
    },

    async putUser(account, name, password, choreos, source = 'admin') {
      if (password.length < 8) throw new AccountError('a password needs at least 8 characters');
      if (
        source === 'file' &&
        (await fileWroteAlready(keys.accountUsers(account), name, patternsOrAll(choreos), (stored) => verifyPassword(password, stored.secretHash)))
      ) {
        return 'unchanged';
      }
      return putCredential(account, 'user', name, await hashPassword(password), choreos, source);
    },

    async putApp(account, name, key, choreos, source = 'admin', rights = []) {
      if (key.length < MIN_KEY_LENGTH) throw new AccountError(`an application key needs at least ${MIN_KEY_LENGTH} characters`);
      if (
        source === 'file' &&
        (await fileWroteAlready(keys.accountApps(account), name, patternsOrAll(choreos), (stored) => verifyKey(key, stored.secretHash), rights))
      ) {
        return 'unchanged';
      }
      return putCredential(account, 'app', name, digestKey(key), choreos, source, rights);
    },

    async issueAppKey(account, name, choreos, rights) {
      const existing = await readCredential(keys.accountApps(account), name);
      const key = generateKey();
      await putCredential(account, 'app', name, digestKey(key), choreos ?? existing?.choreos ?? ['/**'], 'admin', rights ?? existing?.rights ?? []);
      return key;
    },

    revokeCredential(account, kind, name) {
      return revoke(credentialsKey(account, kind), name);
    },

    getCredential(account, kind, name) {
      return readCredential(credentialsKey(account, kind), name);
    },

    async listCredentials(account) {
      const [users, apps] = await Promise.all([redis.hgetall(keys.accountUsers(account)), redis.hgetall(keys.accountApps(account))]);
      const summaries: CredentialSummary[] = [];
      for (const [kind, entries] of [
        ['user', users],
        ['app', apps],
      ] as const) {
        for (const [name, json] of Object.entries(entries)) {
          const { choreos, created, revoked, rights } = JSON.parse(json) as StoredCredential;
          if (!revoked) summaries.push({ kind, name, choreos, created, rights: kind === 'user' ? [...CREDENTIAL_RIGHTS] : (rights ?? []) });
        }
      }
      return summaries.sort((a, b) => a.kind.localeCompare(b.kind) || a.name.localeCompare(b.name));
    },

    async putOperator(name, password, source = 'admin') {
      checkCredentialName(name);
      if (password.length < 8) throw new AccountError('a password needs at least 8 characters');
      if (source === 'file' && (await fileWroteAlready(keys.operators(), name, [], (stored) => verifyPassword(password, stored.secretHash))))
        return 'unchanged';
      const record: StoredCredential = { secretHash: await hashPassword(password), choreos: [], created: Date.now(), source };
      return writeCredential(keys.operators(), name, record);
    },

    getOperator(name) {
      return readCredential(keys.operators(), name);
    },

    revokeOperator(name) {
      return revoke(keys.operators(), name);
    },

    async listOperators() {
      const entries = await redis.hgetall(keys.operators());
      return Object.entries(entries)
        .filter(([, stored]) => !(JSON.parse(stored) as StoredCredential).revoked)
        .map(([name]) => name)
        .sort();
    },
  };
}

/** No patterns given means every Choreo. */
function patternsOrAll(choreos: string[]): string[] {
  return choreos.length > 0 ? choreos : ['/**'];
}
