import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One line `npm start` keeps in a file under the data folder, with the file's path; undefined when there is none. */
export function readServiceDataFile(dataDir: string, name: string): { value: string; file: string } | undefined {
  const file = join(dataDir, name);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const value = text.trim();
  return value === '' ? undefined : { value, file };
}
