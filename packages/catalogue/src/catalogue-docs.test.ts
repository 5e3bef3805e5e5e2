import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { loadCatalogue } from './catalogue.ts';
import { renderCatalogueDocs } from './catalogue-docs.ts';
import { repositoryCatalogueDir } from './catalogue-folder.ts';

describe('docs/catalogue.md', () => {
  it('is up to date with choreos/ (regenerate: node scripts/node.mjs scripts/generate-catalogue-docs.ts)', async () => {
    const expected = renderCatalogueDocs(await loadCatalogue(repositoryCatalogueDir));
    const actual = await readFile(new URL('../../../docs/catalogue.md', import.meta.url), 'utf8');
    expect(actual).toBe(expected);
  });
});
