import { randomBytes } from 'node:crypto';
import { createStepLibrary } from '@ces/steps';
import { type ChoreoDefinition, parseDefinition } from '@ces/language';
import { createSecretCipher, sealSecretResults } from '@ces/store';
import { describe, expect, it } from 'vitest';
import { isSecretEntry, resultSealing, secretResultIds } from './secret-results.ts';

const steps = createStepLibrary();

function definitionOf(raw: unknown): ChoreoDefinition {
  const parsed = parseDefinition(raw, steps);
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  return parsed.definition;
}

const plain = (id: string, text: string) => ({ id, kind: 'text.template', args: { text } });

describe('secret step results', () => {
  it('is declared by the kinds whose results carry a token', () => {
    const secretKinds = steps
      .list()
      .filter((kind) => kind.secretResult === true)
      .map((kind) => kind.kind);
    expect(secretKinds.sort()).toEqual([
      'oauth1.finalize',
      'oauth1.initialize',
      'oauth2.finalize',
      'oauth2.refresh',
      'tokens.details',
      'tokens.lock',
      'tokens.retrieve',
    ]);
  });

  it('names the steps of a secret kind, the steps that read them and the blocks around them', () => {
    const definition = definitionOf({
      description: 'reads a token',
      outputs: {},
      steps: [
        plain('before', 'hello'),
        {
          id: 'attempt',
          try: [{ id: 'get', kind: 'tokens.retrieve', args: { name: 'github' } }, plain('copy', '{{steps.get.token}}')],
          catch: [{ steps: [plain('recover', 'none')] }],
        },
        plain('getter', 'a word that only starts like a secret id'),
        plain('after', '{{steps.copy.text}}'),
      ],
    });
    expect([...secretResultIds(definition, steps, true)].sort()).toEqual(['after', 'attempt', 'copy', 'get']);
  });

  it('names a loop over a secret value with every step inside it, and a loop around a secret step', () => {
    const definition = definitionOf({
      description: 'loops',
      outputs: {},
      steps: [
        { id: 'details', kind: 'tokens.details', args: { names: '["a","b"]' } },
        { id: 'overTokens', forEach: '{{steps.details.tokens}}', steps: [plain('shout', '{{loop.item.value}}')] },
        {
          id: 'names',
          forEach: '["a","b"]',
          steps: [plain('label', '{{loop.item}}'), { id: 'read', kind: 'tokens.retrieve', args: { name: '{{loop.item}}' } }],
        },
      ],
    });
    const secret = secretResultIds(definition, steps, true);
    expect([...secret].sort()).toEqual(['details', 'names', 'overTokens', 'read', 'shout']);
    expect(isSecretEntry(secret, 'names[1]')).toBe(true);
    expect(isSecretEntry(secret, 'names[1].read')).toBe(true);
    expect(isSecretEntry(secret, 'names[1].label')).toBe(false);
    expect(isSecretEntry(secret, 'names[1].read!')).toBe(false);
    expect(isSecretEntry(secret, 'names[1].read@')).toBe(false);
    expect(isSecretEntry(secret, 'names[1].read@token')).toBe(false);
  });

  it('names child runs only when it seals them, and nothing in a Choreo without secrets', () => {
    const definition = definitionOf({
      description: 'a child',
      outputs: {},
      steps: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Library/Utilities/Encoding/Base64Encode', inputs: { Text: 'x' } } }, plain('after', 'x')],
    });
    expect([...secretResultIds(definition, steps, true)]).toEqual(['child']);
    expect(secretResultIds(definition, steps, false).size).toBe(0);
  });

  it('seals and opens a run’s entries by those ids, and opens the results map of an earlier version', () => {
    const cipher = createSecretCipher({ current: randomBytes(32) });
    const id = 'c'.repeat(32);
    const sealing = resultSealing(cipher, id, new Set(['get', 'loop']));
    const results = { get: { token: 'secret-value' }, other: 'clear' };
    const stored = sealSecretResults(cipher, id, results, (step) => step === 'get');
    expect(sealing.openResults(stored)).toEqual(results);
    const entries: [string, unknown][] = [
      ['get', { token: 'secret-value' }],
      ['other', 'clear'],
      ['loop[0]', { token: 'secret-value' }],
      ['loop[0]@', 5],
    ];
    const sealedEntries = sealing.sealEntries(entries);
    expect(JSON.stringify(sealedEntries)).not.toContain('secret-value');
    expect(sealedEntries[1]).toEqual(['other', 'clear']);
    expect(sealing.openEntries(sealedEntries)).toEqual(new Map(entries));
  });
});
