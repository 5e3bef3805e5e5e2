// The packages' layers, stated once: which workspace packages each may import. Biome enforces them
// through `overrides` in biome.json, which this file writes (Biome replaces a rule's options in an
// override instead of merging them, so every override repeats the rules that hold everywhere).
//
//   node scripts/node.mjs scripts/package-layers.ts           rewrite biome.json's overrides
//   node scripts/node.mjs scripts/package-layers.ts --check   exit 1 when they are stale

import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

interface Layer {
  /** What its product code may import. */
  uses: readonly string[];
  /** What its tests (`*.test.ts`, `*-for-test.ts`, `test-support/`) may import besides. */
  testsUse?: readonly string[];
}

/** docs/architecture.md, "Packages and their layers", says why each package stands where it does. */
export const LAYERS: Readonly<Record<string, Layer>> = {
  'packages/language': { uses: [] },
  'packages/formats': { uses: ['language'] },
  'packages/sandbox': { uses: ['language', 'formats'] },
  'packages/steps': { uses: ['language', 'formats', 'sandbox'] },
  'packages/catalogue': { uses: ['language', 'formats', 'sandbox', 'steps'] },
  'packages/store': { uses: ['language'] },
  'packages/config': { uses: [] },
  'packages/local-runtime': { uses: [] },
  'packages/observability': { uses: [], testsUse: ['testing'] },
  'packages/testing': { uses: ['local-runtime', 'store'] },
  'packages/accounts': { uses: ['store'], testsUse: ['testing'] },
  'packages/engine': { uses: ['language'], testsUse: ['formats', 'sandbox', 'steps', 'catalogue'] },
  'packages/client': { uses: [] },
  'apps/api': {
    uses: ['accounts', 'catalogue', 'config', 'engine', 'formats', 'language', 'local-runtime', 'observability', 'sandbox', 'steps', 'store'],
    testsUse: ['testing'],
  },
  'apps/worker': {
    uses: ['accounts', 'catalogue', 'config', 'engine', 'formats', 'language', 'local-runtime', 'observability', 'sandbox', 'steps', 'store'],
    testsUse: ['testing'],
  },
  'apps/cli': { uses: ['client'] },
};

/** Workspaces outside the layers, which no layer may import. */
const OUTSIDE = ['scripts', 'bench', 'integration-tests'];

const EVERYWHERE = [
  { group: ['@ces/*/**'], message: 'Import a package by its name: each package exposes only its index.ts.' },
  { group: ['**/packages/**', '**/apps/**'], message: 'Reach another workspace through its package name, never by a relative path.' },
];

const NO_VITEST = {
  group: ['vitest', 'vitest/**'],
  message: 'Only tests import vitest: their cases and helpers live in test/ or @ces/testing, not beside the product.',
};

const nameOf = (folder: string) => folder.split('/')[1] as string;

function override(includes: string[], patterns: object[]) {
  return { includes, linter: { rules: { style: { noRestrictedImports: { level: 'error', options: { patterns } } } } } };
}

function refused(folder: string, allowed: readonly string[]) {
  const all = [...Object.keys(LAYERS).map(nameOf), ...OUTSIDE];
  const group = all.filter((name) => name !== nameOf(folder) && !allowed.includes(name)).map((name) => `@ces/${name}`);
  return {
    group,
    message: `${folder} may import ${allowed.length === 0 ? 'no workspace package' : allowed.join(', ')} (docs/architecture.md, "Packages and their layers").`,
  };
}

/** The overrides that hold each package to its layer; later overrides win, so product code comes after tests. */
export function layerOverrides(): object[] {
  return Object.entries(LAYERS).flatMap(([folder, layer]) => {
    const product = [...EVERYWHERE, refused(folder, layer.uses)];
    if (folder !== 'packages/testing') product.push(NO_VITEST);
    return [
      override([`${folder}/**`], [...EVERYWHERE, refused(folder, [...layer.uses, ...(layer.testsUse ?? [])])]),
      override([`${folder}/**`, '!**/*.test.ts', '!**/*-for-test.ts', '!**/test-support/**'], product),
    ];
  });
}

const biomeFile = fileURLToPath(new URL('../biome.json', import.meta.url));

/** biome.json with its layer overrides as this file states them; the other overrides kept, first. */
export function withLayerOverrides(biome: { overrides?: { includes: string[] }[] }): object {
  const isLayer = (entry: { includes: string[] }) => Object.keys(LAYERS).some((folder) => entry.includes[0] === `${folder}/**`);
  const others = (biome.overrides ?? []).filter((entry) => !isLayer(entry));
  return { ...biome, overrides: [...others, ...layerOverrides()] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const actual = JSON.parse(await readFile(biomeFile, 'utf8'));
  const expected = withLayerOverrides(actual);
  if (process.argv.includes('--check')) {
    if (!isDeepStrictEqual(actual, expected)) {
      process.stderr.write('biome.json does not state the layers of scripts/package-layers.ts: run node scripts/node.mjs scripts/package-layers.ts\n');
      process.exit(1);
    }
    process.stdout.write('biome.json states the layers\n');
  } else {
    // Biome formats its own configuration: `npm run format` lays it out again.
    await writeFile(biomeFile, `${JSON.stringify(expected, null, 2)}\n`);
    process.stdout.write(`wrote ${biomeFile}\n`);
  }
}
