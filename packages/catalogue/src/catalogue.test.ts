import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCatalogue } from './catalogue.ts';
import { repositoryCatalogueDir } from './catalogue-folder.ts';

let dir: string;
let outside: string;

const good = {
  description: 'Good.',
  inputs: { Text: { description: 'Text.', required: true } },
  outputs: { Out: { description: 'Out.', value: '{{steps.s.text}}' } },
  steps: [{ id: 's', kind: 'text.template', args: { text: '{{inputs.Text}}' } }],
};

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'catalogue-'));
  outside = await mkdtemp(join(tmpdir(), 'outside-'));
  await mkdir(join(dir, 'Library', 'Things'), { recursive: true });
  await mkdir(join(dir, '.hidden'));
  await writeFile(join(dir, 'Library', 'Things', 'Good.json'), JSON.stringify(good));
  await writeFile(join(dir, 'Library', 'Things', 'Broken.json'), '{ "description": ');
  await writeFile(join(dir, 'Library', 'Things', 'Invalid.json'), JSON.stringify({ ...good, steps: [{ id: 's', kind: 'nope' }] }));
  await writeFile(
    join(dir, 'Library', 'Things', 'Wrong.json'),
    JSON.stringify({
      ...good,
      description: '',
      steps: [
        { id: 's', kind: 'nope' },
        { id: 't', kind: 'text.template', args: { text: '{{inputs.Nobody}}' } },
      ],
    }),
  );
  await writeFile(join(dir, 'Library', 'Things', 'Bad name.json'), JSON.stringify(good));
  await writeFile(join(dir, 'Library', 'Things', 'notes.txt'), 'not a Choreo');
  await writeFile(join(dir, '.hidden', 'Secret.json'), JSON.stringify(good));
  await writeFile(join(outside, 'Elsewhere.json'), JSON.stringify(good));
  await symlink(join(outside, 'Elsewhere.json'), join(dir, 'Library', 'Things', 'Linked.json'));
  await symlink(outside, join(dir, 'Library', 'LinkedFolder'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
  await rm(outside, { recursive: true, force: true });
});

describe('loadCatalogue', () => {
  it('lists real files only, sorted, with invalid ones marked and explained', async () => {
    const catalogue = await loadCatalogue(dir);
    expect(catalogue.list().map((entry) => [entry.id, entry.valid])).toEqual([
      ['/Library/Things/Bad name', false],
      ['/Library/Things/Broken', false],
      ['/Library/Things/Good', true],
      ['/Library/Things/Invalid', false],
      ['/Library/Things/Wrong', false],
    ]);
    const goodEntry = catalogue.get('/Library/Things/Good');
    expect(goodEntry?.valid && goodEntry.digest).toMatch(/^[0-9a-f]{64}$/);
    expect(catalogue.get('/Library/Things/Broken')?.problems).toEqual([expect.stringMatching(/^the file is not valid JSON: /)]);
    const invalid = catalogue.get('/Library/Things/Invalid');
    expect(invalid).toMatchObject({ valid: false, description: 'Good.', problems: ['steps[0] (s): unknown step kind "nope"'] });
    expect(Object.keys(invalid?.inputs ?? {})).toEqual(['Text']);
    expect(Object.keys(invalid?.outputs ?? {})).toEqual(['Out']);
    expect(catalogue.get('/Library/Things/Wrong')?.problems).toEqual([
      'description: a description is required',
      'steps[0] (s): unknown step kind "nope"',
      'steps[1] (t) args.text: {{inputs.Nobody}} refers to an input that is not declared',
    ]);
  });

  it('resolves nothing but exact ids', async () => {
    const catalogue = await loadCatalogue(dir);
    for (const id of [
      '/Library/Things/../Things/Good',
      'Library/Things/Good',
      '/Library/Things/Linked',
      '/.hidden/Secret',
      '/Library/LinkedFolder/Elsewhere',
    ]) {
      expect(catalogue.get(id)).toBeUndefined();
    }
  });
});

describe('the checked-in catalogue', () => {
  const folders = ['Encoding', 'Hashing', 'JSON', 'XML', 'DataConversions', 'HTTP', 'Text', 'Dates', 'Development'];

  it('has at least 30 valid, fully described Choreos in every Utilities folder', async () => {
    const entries = (await loadCatalogue(repositoryCatalogueDir)).list();
    expect(entries.filter((entry) => !entry.valid).map((entry) => `${entry.id}: ${entry.problems.join('; ')}`)).toEqual([]);
    const utilities = entries.filter((entry) => entry.id.startsWith('/Library/Utilities/'));
    expect(utilities.length).toBeGreaterThanOrEqual(30);
    for (const folder of folders)
      expect(
        utilities.some((entry) => entry.id.startsWith(`/Library/Utilities/${folder}/`)),
        folder,
      ).toBe(true);
    for (const entry of entries) {
      expect(entry.description.trim(), entry.id).not.toBe('');
      for (const [name, variable] of [...Object.entries(entry.inputs), ...Object.entries(entry.outputs)]) {
        expect(variable.description.trim(), `${entry.id} ${name}`).not.toBe('');
      }
    }
  });

  it.each([
    ['Encoding/Base64Encode', ['Text'], ['Base64EncodedText']],
    ['Encoding/Base64Decode', ['Base64EncodedText'], ['Text']],
    ['JSON/GetValuesFromJSON', ['JSON', 'Property'], ['Response']],
    ['JSON/RunJSONPathQuery', ['JSON', 'Path'], ['Result']],
    ['XML/RunXPathQuery', ['XML', 'XPath'], ['Result']],
    ['HTTP/Get', ['URL', 'RequestHeaders'], ['Response', 'ResponseStatusCode']],
    ['Development/Countdown', ['StepMilliseconds'], ['CompletedSteps']],
  ])('has %s with the agreed inputs and outputs', async (name, inputs, outputs) => {
    const entry = (await loadCatalogue(repositoryCatalogueDir)).get(`/Library/Utilities/${name}`);
    expect(entry?.valid).toBe(true);
    expect(Object.keys(entry?.inputs ?? {})).toEqual(expect.arrayContaining(inputs));
    expect(Object.keys(entry?.outputs ?? {})).toEqual(expect.arrayContaining(outputs));
  });
});
