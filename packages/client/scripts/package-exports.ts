// Points the package's exports at its TypeScript sources (in this repository, where Node runs them
// as they are) or at the JavaScript and declarations built into dist/ (in a packed package: Node
// does not strip types under node_modules). `npm pack` switches to the second and back.
//
//   node scripts/package-exports.ts published   exports from dist/
//   node scripts/package-exports.ts workspace   exports from src/
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const MANIFEST = fileURLToPath(new URL('../package.json', import.meta.url));
const EXPORTS = {
  workspace: { '.': './src/index.ts' },
  published: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
};

const target = process.argv[2];
if (target !== 'workspace' && target !== 'published') {
  process.stderr.write('usage: package-exports.ts workspace|published\n');
  process.exit(2);
}
const manifest = JSON.parse(readFileSync(MANIFEST, 'utf8'));
manifest.exports = EXPORTS[target];
writeFileSync(MANIFEST, `${JSON.stringify(manifest, null, 2)}\n`);
