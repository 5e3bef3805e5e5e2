// Writes docs/catalogue.md from the Choreo definitions under choreos/.
//
//   node scripts/node.mjs scripts/generate-catalogue-docs.ts           rewrite the file
//   node scripts/node.mjs scripts/generate-catalogue-docs.ts --check   exit 1 when it is stale
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { loadCatalogue, renderCatalogueDocs } from '@ces/catalogue';

const catalogueDir = fileURLToPath(new URL('../choreos', import.meta.url));
const docsFile = fileURLToPath(new URL('../docs/catalogue.md', import.meta.url));

const expected = renderCatalogueDocs(await loadCatalogue(catalogueDir));

if (process.argv.includes('--check')) {
  const actual = await readFile(docsFile, 'utf8').catch(() => '');
  if (actual !== expected) {
    process.stderr.write('docs/catalogue.md is stale: run node scripts/node.mjs scripts/generate-catalogue-docs.ts\n');
    process.exit(1);
  }
  process.stdout.write('docs/catalogue.md is up to date\n');
} else {
  await writeFile(docsFile, expected);
  process.stdout.write(`wrote ${docsFile}\n`);
}
