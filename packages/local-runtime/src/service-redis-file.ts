import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readServiceDataFile } from './service-data-file.ts';

/**
 * The file under the data folder in which `npm start` writes the URL of the Redis it uses (one it
 * started, on whatever port was free, or REDIS_URL), so that the admin command line works on the
 * same Redis without being told. Readable by its owner only: a URL may carry a password.
 */
const SERVICE_REDIS_FILE = 'redis-url';

export function writeServiceRedisUrl(dataDir: string, url: string): string {
  mkdirSync(dataDir, { recursive: true });
  const file = join(dataDir, SERVICE_REDIS_FILE);
  writeFileSync(file, `${url}\n`, { mode: 0o600 });
  return file;
}

/** The URL `npm start` wrote under `dataDir`, with the file's path; undefined when there is none. */
export function readServiceRedisUrl(dataDir: string): { url: string; file: string } | undefined {
  const found = readServiceDataFile(dataDir, SERVICE_REDIS_FILE);
  return found && { url: found.value, file: found.file };
}
