import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { LAYERS, withLayerOverrides } from '../scripts/package-layers.ts';

const biomeFile = new URL('../biome.json', import.meta.url);

describe('package layers', () => {
  it('biome.json states the layers of scripts/package-layers.ts (npm run lint:layers rewrites it)', async () => {
    const actual = JSON.parse(await readFile(biomeFile, 'utf8'));
    expect(actual).toEqual(withLayerOverrides(actual));
  });

  it('every package and app of the workspace has a layer', async () => {
    const root = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { workspaces: string[] };
    const folders: string[] = [];
    for (const pattern of root.workspaces.filter((entry) => entry.endsWith('/*'))) {
      const parent = pattern.slice(0, -2);
      for (const name of await readdir(new URL(`../${parent}/`, import.meta.url))) folders.push(`${parent}/${name}`);
    }
    expect(folders.sort()).toEqual(Object.keys(LAYERS).sort());
  });

  it('a layer uses only packages that have layers, and none that uses it back', () => {
    const names = new Set(Object.keys(LAYERS).map((folder) => folder.split('/')[1]));
    for (const [folder, layer] of Object.entries(LAYERS)) {
      const self = folder.split('/')[1] as string;
      for (const used of layer.uses) {
        expect(names.has(used), `${folder} uses ${used}`).toBe(true);
        const back = Object.entries(LAYERS).find(([other]) => other.split('/')[1] === used)?.[1];
        expect(back?.uses.includes(self), `${used} uses ${self} back`).toBe(false);
      }
    }
  });
});
