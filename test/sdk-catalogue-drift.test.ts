import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOGUE_DIR } from './support/stack.ts';
import { catalogueDrift, readSdkUtilities, type SdkChoreo } from './support/temboo-library.ts';

// The catalogue against the original's Node SDK: every location, input and output name its
// Library/Utilities classes know must exist here, so that programs written with it keep working.

const sdk = readSdkUtilities();

describe("the catalogue against the original's Node SDK", () => {
  it('reads every Choreo class of the SDK with its location, inputs and outputs', () => {
    expect(sdk).toHaveLength(71);
    const base64 = sdk.find((choreo) => choreo.location === '/Library/Utilities/Encoding/Base64Encode');
    expect(base64).toEqual({
      family: 'Encoding',
      name: 'Base64Encode',
      location: '/Library/Utilities/Encoding/Base64Encode',
      inputs: ['Text', 'URL'],
      outputs: ['Base64EncodedText'],
    });
    for (const choreo of sdk) {
      expect(choreo.location, choreo.name).toBe(`/Library/Utilities/${choreo.family}/${choreo.name}`);
      expect(choreo.outputs.length, choreo.location).toBeGreaterThan(0);
    }
  });

  it('has every location, input and output of every family, those that keep state per account too', () => {
    const families = new Set(sdk.map((choreo) => choreo.family));
    for (const family of ['Authentication/OAuth1', 'Authentication/OAuth2', 'Callback', 'Email', 'TokenStorage']) expect(families, family).toContain(family);
    expect(catalogueDrift(sdk, CATALOGUE_DIR)).toEqual([]);
  });

  describe('catalogueDrift', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ces-drift-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const write = (location: string, inputs: string[], outputs: string[]) => {
      const file = join(dir, `${location}.json`);
      mkdirSync(dirname(file), { recursive: true });
      const names = (list: string[]) => Object.fromEntries(list.map((name) => [name, { description: name, type: 'STRING_VARIABLE' }]));
      writeFileSync(file, JSON.stringify({ description: 'x', inputs: names(inputs), outputs: names(outputs), steps: [] }));
    };
    const choreo = (location: string, inputs: string[], outputs: string[]): SdkChoreo => ({ family: 'F', name: 'N', location, inputs, outputs });

    it('names each missing location, input and output, and accepts extra ones of ours', () => {
      write('/Library/Utilities/F/Here', ['A', 'Extra'], ['Out']);
      write('/Library/Utilities/F/Short', ['A'], []);
      expect(
        catalogueDrift(
          [
            choreo('/Library/Utilities/F/Here', ['A'], ['Out']),
            choreo('/Library/Utilities/F/Short', ['A', 'B'], ['Out']),
            choreo('/Library/Utilities/F/Gone', ['A'], ['Out']),
          ],
          dir,
        ),
      ).toEqual(['/Library/Utilities/F/Short: no input B', '/Library/Utilities/F/Short: no output Out', '/Library/Utilities/F/Gone: no such Choreo']);
    });

    it('is strict about the letter case of a name', () => {
      write('/Library/Utilities/F/Case', ['text'], ['result']);
      expect(catalogueDrift([choreo('/Library/Utilities/F/Case', ['Text'], ['Result'])], dir)).toEqual([
        '/Library/Utilities/F/Case: no input Text',
        '/Library/Utilities/F/Case: no output Result',
      ]);
    });
  });
});
