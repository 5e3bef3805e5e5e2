import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

/** The libraries only some steps use: none may be loaded before one of those steps runs. */
const LOADED_ON_FIRST_USE = [
  '@e965/xlsx',
  '@xmldom/xmldom',
  'csv-parse',
  'fast-xml-parser',
  'jsonpath-plus',
  'luxon',
  'nodemailer',
  'oauth-1.0a',
  'quickjs-emscripten',
  'xmllint-wasm',
  'xpath',
];

// What a process loads, as an API or a worker does: the packages, then the repository's catalogue
// with the whole step library, then one step that needs luxon. Run in a process of its own, since
// this one has loaded whatever other tests needed.
const PROBE = `
import { registerHooks } from 'node:module';
const packages = new Set();
registerHooks({
  load(url, context, next) {
    const name = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(url)?.[1];
    if (name) packages.add(name);
    return next(url, context);
  },
});
const [stepsUrl, catalogueUrl, catalogueDir] = process.argv.slice(2);
const { createStepLibrary } = await import(stepsUrl);
const { loadCatalogue } = await import(catalogueUrl);
const steps = createStepLibrary();
const catalogue = await loadCatalogue(catalogueDir, steps);
const afterCatalogue = [...packages];
const step = steps.get('dates.format');
const formatted = await step.run(step.argsSchema.parse({ timestamp: '0', format: 'yyyy', timeZone: '' }), { signal: new AbortController().signal });
process.stdout.write(JSON.stringify({ choreos: catalogue.list().length, afterCatalogue, afterDateStep: [...packages], formatted }));
process.exit(0);
`;

describe('libraries loaded on first use', () => {
  const dir = mkdtempSync(join(tmpdir(), 'first-use-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('are not loaded by importing the package or loading the catalogue, only by a step that needs one', { timeout: 60_000 }, async () => {
    const probe = join(dir, 'probe.mjs');
    writeFileSync(probe, PROBE);
    const catalogueDir = fileURLToPath(new URL('../../../choreos', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, [
      probe,
      import.meta.resolve('@ces/steps'),
      new URL('./index.ts', import.meta.url).href,
      catalogueDir,
    ]);
    const report = JSON.parse(stdout) as { choreos: number; afterCatalogue: string[]; afterDateStep: string[]; formatted: unknown };
    expect(report.choreos).toBeGreaterThan(50);
    expect(report.afterCatalogue.filter((name) => LOADED_ON_FIRST_USE.includes(name))).toEqual([]);
    expect(report.formatted).toMatchObject({ text: '1970' });
    expect(report.afterDateStep.filter((name) => LOADED_ON_FIRST_USE.includes(name))).toEqual(['luxon']);
  });
});
