import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ChoreoCase } from '../cases/choreo-case.ts';

const CASES_DIR = fileURLToPath(new URL('../cases/', import.meta.url));

/** Every table of test/cases/, by file name, with the cases that run `where`, in the table's order. */
export async function loadChoreoCases(where: 'engine' | 'sdk'): Promise<{ file: string; cases: ChoreoCase[] }[]> {
  const files = readdirSync(CASES_DIR)
    .filter((file) => file.endsWith('.ts') && file !== 'choreo-case.ts')
    .sort();
  const tables = await Promise.all(
    files.map(async (file) => ({ file, cases: ((await import(pathToFileURL(`${CASES_DIR}${file}`).href)) as { cases: ChoreoCase[] }).cases })),
  );
  return tables
    .map(({ file, cases }) => ({ file, cases: cases.filter((testCase) => testCase.only === undefined || testCase.only === where) }))
    .filter(({ cases }) => cases.length > 0);
}
