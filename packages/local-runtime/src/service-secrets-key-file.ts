import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { readServiceDataFile } from './service-data-file.ts';

/**
 * The file under the data folder in which `npm start` keeps the SECRETS_KEY it made (when none was
 * set), so that its API, its workers and the admin command line seal and open with the same key
 * across restarts. Readable by its owner only.
 */
const SERVICE_SECRETS_KEY_FILE = 'secrets.key';

/** The key `npm start` uses: the one written under `dataDir`, made there the first time. */
export function ensureServiceSecretsKey(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, SERVICE_SECRETS_KEY_FILE);
  if (!existsSync(file)) writeFileSync(file, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600 });
  return readFileSync(file, 'utf8').trim();
}

/** The key `npm start` wrote under `dataDir`, with the file's path; undefined when there is none. */
export function readServiceSecretsKey(dataDir: string): { key: string; file: string } | undefined {
  const found = readServiceDataFile(dataDir, SERVICE_SECRETS_KEY_FILE);
  return found && { key: found.value, file: found.file };
}
