import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadCatalogue } from './catalogue.ts';

const folders: string[] = [];
afterEach(async () => {
  for (const folder of folders.splice(0)) await rm(folder, { recursive: true, force: true });
});

/** A catalogue folder with a Choreo per id, each running the given children. */
async function catalogueOf(children: Record<string, string[]>): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'child-references-'));
  folders.push(folder);
  for (const [id, runs] of Object.entries(children)) {
    const file = join(folder, `${id}.json`);
    await mkdir(dirname(file), { recursive: true });
    const steps = runs.map((choreo, index) => ({ id: `child${index}`, kind: 'choreo.run', args: { choreo } }));
    await writeFile(file, JSON.stringify({ description: id, inputs: {}, outputs: {}, steps: [{ id: 'first', kind: 'noop', args: {} }, ...steps] }));
  }
  return folder;
}

describe('sub-Choreos in the catalogue', () => {
  it('refuses a Choreo that runs itself', async () => {
    const catalogue = await loadCatalogue(await catalogueOf({ 'Library/Loop': ['/Library/Loop'] }));
    expect(catalogue.get('/Library/Loop')).toMatchObject({ valid: false, problems: ['choreo.run forms a cycle: /Library/Loop → /Library/Loop'] });
  });

  it('refuses every member of a cycle among Library Choreos, not the Choreos around it', async () => {
    const catalogue = await loadCatalogue(
      await catalogueOf({
        'Library/A': ['/Library/B'],
        'Library/B': ['/Library/C'],
        'Library/C': ['/Library/A'],
        'Library/Leaf': [],
        'Library/Caller': ['/Library/Leaf'],
      }),
    );
    for (const id of ['/Library/A', '/Library/B', '/Library/C']) {
      expect(catalogue.get(id)?.valid, id).toBe(false);
      expect(catalogue.get(id)?.problems.join(), id).toMatch(/forms a cycle: .*\/Library\/A.*\/Library\/B.*\/Library\/C/);
    }
    expect(catalogue.get('/Library/Caller')?.valid).toBe(true);
    expect(catalogue.get('/Library/Leaf')?.valid).toBe(true);
  });

  it('refuses a Choreo that runs a missing or invalid Library Choreo, and leaves other ids to run time', async () => {
    const catalogue = await loadCatalogue(
      await catalogueOf({
        'Library/Missing': ['/Library/Nowhere'],
        'Library/IntoCycle': ['/Library/Self'],
        'Library/Self': ['/Library/Self'],
        'Library/Account': ['/acme/Own'],
      }),
    );
    expect(catalogue.get('/Library/Missing')?.problems).toEqual(['choreo.run names /Library/Nowhere, which is not a valid Choreo of the catalogue']);
    expect(catalogue.get('/Library/Account')?.valid).toBe(true);
    expect(catalogue.get('/Library/IntoCycle')?.problems).toEqual(['choreo.run names /Library/Self, which is not a valid Choreo of the catalogue']);
  });

  it('accepts the shipped example', async () => {
    const catalogue = await loadCatalogue(new URL('../../../choreos', import.meta.url).pathname);
    expect(catalogue.get('/Library/Examples/EncodeViaChild')).toMatchObject({ valid: true, instant: false });
  });
});
