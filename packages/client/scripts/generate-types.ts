// Writes `src/generated/api.ts`, the client's types, from the interface's OpenAPI document as the
// API makes it (the document is printed by a process of the API, which this package never imports).
//
//   npm run generate -w @ces/client            rewrite the types
//   npm run generate -w @ces/client -- --check exit 1 when the committed types are stale
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const PRINT_DOCUMENT = fileURLToPath(new URL('../../../apps/api/src/openapi/print-openapi-document.ts', import.meta.url));
const TYPES_FILE = fileURLToPath(new URL('../src/generated/api.ts', import.meta.url));

const HEADER = `// Generated from the service's OpenAPI document by \`npm run generate -w @ces/client\`; do not edit.
// A test fails when it no longer matches the document.

`;

const document = JSON.parse(execFileSync(process.execPath, [PRINT_DOCUMENT], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }));
const types = HEADER + astToString(await openapiTS(document, { alphabetize: false }));

if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(TYPES_FILE, 'utf8');
  } catch {}
  if (committed !== types) {
    process.stderr.write('packages/client/src/generated/api.ts is stale: run `npm run generate -w @ces/client` and commit it\n');
    process.exit(1);
  }
  process.stdout.write('packages/client/src/generated/api.ts matches the OpenAPI document\n');
} else {
  writeFileSync(TYPES_FILE, types);
  process.stdout.write(`wrote ${TYPES_FILE}\n`);
}
