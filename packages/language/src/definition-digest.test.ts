import { describe, expect, it } from 'vitest';
import type { ChoreoDefinition } from './definition.ts';
import { canonicalJson, definitionDigest } from './definition-digest.ts';

const definition: ChoreoDefinition = {
  description: 'd',
  inputs: {},
  outputs: { B: { description: 'b', type: 'STRING_VARIABLE', value: 'x' } },
  steps: [{ id: 's', kind: 'noop', args: { z: 1, a: [1, { y: 2, x: 1 }] } }],
};

describe('definitionDigest', () => {
  it('ignores key order and is a sha256 hex', () => {
    const reordered = JSON.parse(JSON.stringify({ steps: definition.steps, outputs: definition.outputs, inputs: {}, description: 'd' })) as ChoreoDefinition;
    expect(definitionDigest(reordered)).toBe(definitionDigest(definition));
    expect(definitionDigest(definition)).toMatch(/^[0-9a-f]{64}$/);
    expect(canonicalJson({ b: 1, a: [true, null], c: undefined })).toBe('{"a":[true,null],"b":1}');
  });

  it('changes with the content', () => {
    expect(definitionDigest({ ...definition, description: 'other' })).not.toBe(definitionDigest(definition));
  });
});
