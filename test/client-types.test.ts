import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const GENERATOR = fileURLToPath(new URL('../packages/client/scripts/generate-types.ts', import.meta.url));

// The client's types are generated from the OpenAPI document and committed, so that a program uses
// the package as it is; a change of the interface without `npm run generate -w @ces/client` fails here.
describe('the typed client', () => {
  it('has types generated from the OpenAPI document the API makes now', { timeout: 60_000 }, async () => {
    const check = await promisify(execFile)(process.execPath, [GENERATOR, '--check']).catch((error: { code: number; stderr: string }) => error);
    expect('stderr' in check ? check.stderr : '').toBe('');
    expect(check).not.toHaveProperty('code');
  });
});
