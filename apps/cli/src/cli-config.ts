import type { CesClientConfig } from '@ces/client';
import { UsageError } from './cli-errors.ts';

/** The service `npm start` runs, when neither --url nor CES_URL says another. */
export const DEFAULT_URL = 'https://localhost:8443';

/** Where to connect and as whom, as flags and environment give it (flags win). */
export interface ConnectionSettings {
  url?: string | undefined;
  account?: string | undefined;
  user?: string | undefined;
  password?: string | undefined;
  app?: string | undefined;
  key?: string | undefined;
  caFile?: string | undefined;
}

/** The settings the environment gives: `CES_URL`, `CES_ACCOUNT`, `CES_USER`… */
export function settingsFromEnv(env: Record<string, string | undefined>): ConnectionSettings {
  const read = (name: string) => (env[name]?.trim() ? env[name] : undefined);
  return {
    url: read('CES_URL'),
    account: read('CES_ACCOUNT'),
    user: read('CES_USER'),
    password: read('CES_PASSWORD'),
    app: read('CES_APP'),
    key: read('CES_KEY'),
    caFile: read('CES_CA_FILE'),
  };
}

/** The client's configuration; a UsageError naming what is missing or wrong. */
export async function clientConfigOf(
  flags: ConnectionSettings,
  env: ConnectionSettings,
  readFile: (path: string) => Promise<string>,
): Promise<CesClientConfig> {
  const pick = <K extends keyof ConnectionSettings>(name: K) => flags[name] ?? env[name];
  const url = pick('url') ?? DEFAULT_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`the service URL "${url}" is not a URL such as ${DEFAULT_URL}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new UsageError(`the service URL must be https://, not ${parsed.protocol}`);
  const account = pick('account');
  if (!account) throw new UsageError('no account: give --account or set CES_ACCOUNT');
  // A user's flag beats an application's variable and the other way round: flags decide first.
  const user = flags.user ?? (flags.app ? undefined : env.user);
  const app = flags.app ?? (flags.user ? undefined : env.app);
  if (user && app) throw new UsageError('give a user (CES_USER, --user) or an application (CES_APP, --app), not both');
  let credentials: { name: string; secret: string };
  if (user) {
    const password = pick('password');
    if (!password) throw new UsageError(`no password for user ${user}: set CES_PASSWORD`);
    credentials = { name: user, secret: password };
  } else if (app) {
    const key = pick('key');
    if (!key) throw new UsageError(`no key for application ${app}: set CES_KEY`);
    credentials = { name: app, secret: key };
  } else {
    throw new UsageError('no credentials: set CES_USER and CES_PASSWORD, or CES_APP and CES_KEY');
  }
  const caFile = pick('caFile');
  let ca: string | undefined;
  if (caFile) {
    try {
      ca = await readFile(caFile);
    } catch (error) {
      throw new UsageError(`cannot read the CA file ${caFile}: ${(error as Error).message}`);
    }
  }
  return { url, account, credentials, ...(ca ? { ca } : {}) };
}
