import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { parseDefinition, stepLibraryFrom } from '@ces/language';
import { createStepLibrary } from './step-library.ts';

const library = createStepLibrary();

describe('the step library', () => {
  it.each(library.list().map((kind) => [kind.kind, kind] as const))('%s has a description and a valid example', (_, kind) => {
    expect(kind.description.length).toBeGreaterThan(20);
    const args = kind.example ?? {};
    const inputs = Object.fromEntries(
      [...JSON.stringify(args).matchAll(/\{\{inputs\.(\w+)\}\}/g)].map((match) => [match[1], { description: 'Example input.' }]),
    );
    const result = parseDefinition({ description: 'Example.', inputs, steps: [{ id: 'example', kind: kind.kind, args }] }, library);
    expect(result.ok ? [] : result.problems).toEqual([]);
  });

  it('is documented kind by kind in docs/choreos.md', async () => {
    const docs = await readFile(new URL('../../../docs/choreos.md', import.meta.url), 'utf8');
    for (const kind of library.list()) expect(docs, kind.kind).toContain(`### \`${kind.kind}\``);
  });

  it('refuses a kind defined twice', () => {
    const [first] = library.list();
    if (!first) throw new Error('the library lists no kind');
    expect(() => stepLibraryFrom([first, first])).toThrow(/defined twice/);
  });
});
