import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createSecretCipher } from './secret-cipher.ts';
import {
  openProgressEntries,
  openSealedResults,
  rebindSealedEntries,
  resultsAsEntries,
  SEALED_RESULTS,
  sealProgressEntries,
  sealSecretResults,
  SecretResultsKeyMissingError,
} from './sealed-results.ts';

describe('sealed step results', () => {
  const cipher = createSecretCipher({ current: randomBytes(32) });
  const id = 'a'.repeat(32);
  const isSecret = (stepId: string) => stepId === 'get';

  it('seals the secret results into one entry, keeps the others, and opens them back', () => {
    const results = { get: { token: 't-123', valid: 'true' }, count: { length: '3' } };
    const stored = sealSecretResults(cipher, id, results, isSecret);
    expect(Object.keys(stored).sort()).toEqual([SEALED_RESULTS, 'count']);
    expect(JSON.stringify(stored)).not.toContain('t-123');
    expect(openSealedResults(cipher, id, JSON.parse(JSON.stringify(stored)))).toEqual(results);
  });

  it('leaves results without a secret one as they are, and needs no key for them', () => {
    expect(sealSecretResults(undefined, id, { count: 1 }, isSecret)).toEqual({ count: 1 });
    expect(openSealedResults(undefined, id, { count: 1 })).toEqual({ count: 1 });
  });

  it('refuses to keep a secret result in clear, or to read one, without a key', () => {
    expect(() => sealSecretResults(undefined, id, { get: { token: 't' } }, isSecret)).toThrow(SecretResultsKeyMissingError);
    const stored = sealSecretResults(cipher, id, { get: { token: 't' } }, isSecret);
    expect(() => openSealedResults(undefined, id, stored)).toThrow(SecretResultsKeyMissingError);
    expect(() => sealProgressEntries(undefined, id, [['get', { token: 't' }]], isSecret)).toThrow(SecretResultsKeyMissingError);
  });

  it('opens results in no other execution, and not as outputs', () => {
    const stored = sealSecretResults(cipher, id, { get: { token: 't' } }, isSecret);
    expect(() => openSealedResults(cipher, 'b'.repeat(32), stored)).toThrow();
    const sealed = stored[SEALED_RESULTS];
    expect(typeof sealed).toBe('string');
    expect(() => cipher.open(String(sealed), `execution-outputs\0${id}`)).toThrow();
  });

  it('seals each secret progress entry alone, bound to its address, and opens it back', () => {
    const isSecretAddress = (address: string) => address === 'pages[0]' || address === 'pages[0].get';
    const entries: [string, unknown][] = [
      ['pages[0].get', { token: 't-456' }],
      ['pages[0]', { token: 't-456' }],
      ['pages[0].count', 2],
      ['pages[1]@', 1_700_000_000_000],
    ];
    const stored = sealProgressEntries(cipher, id, entries, isSecretAddress);
    expect(JSON.stringify(stored)).not.toContain('t-456');
    expect(stored.map(([address]) => address)).toEqual(entries.map(([address]) => address));
    expect(stored[2]).toEqual(['pages[0].count', 2]);
    expect(stored[3]).toEqual(['pages[1]@', 1_700_000_000_000]);
    // As Redis gives them back: JSON text parsed again.
    const read = stored.map(([address, value]) => [address, JSON.parse(JSON.stringify(value))] as const);
    expect(openProgressEntries(cipher, id, read, isSecretAddress)).toEqual(new Map(entries));

    // Moved to another secret address, a sealed value does not open there.
    const moved = [['pages[0]', stored[0]?.[1]]] as const;
    expect(() => openProgressEntries(cipher, id, moved, isSecretAddress)).toThrow();
  });

  it('opens only the entries its rule names: a look-alike elsewhere, or a secret one kept in clear, is read as it is', () => {
    const lookAlike = { [SEALED_RESULTS]: 'not sealed at all' };
    const opened = openProgressEntries(
      undefined,
      id,
      [
        ['code', lookAlike],
        ['get', { token: 'from an earlier worker' }],
      ],
      isSecret,
    );
    expect(opened.get('code')).toEqual(lookAlike);
    expect(opened.get('get')).toEqual({ token: 'from an earlier worker' });
  });

  it('binds what a redrive copies to the redrive: opened there, in clear nowhere, no longer in the run it redrives', () => {
    const redrive = 'c'.repeat(32);
    const entries = sealProgressEntries(cipher, id, [['pages[0]', { token: 't-2' }]], (address) => address === 'pages[0]');
    const stored = entries.map(([address, value]) => [address, JSON.stringify(value)] as [string, string]);
    const rebound = rebindSealedEntries(cipher, id, redrive, [...stored, ['pages[1]', '{"n":1}']]);
    expect(JSON.stringify(rebound)).not.toContain('t-2');
    const open = (under: string) =>
      openProgressEntries(
        cipher,
        under,
        rebound.map(([address, json]) => [address, JSON.parse(json) as unknown]),
        (address) => address === 'pages[0]',
      );
    expect(open(redrive)).toEqual(
      new Map<string, unknown>([
        ['pages[0]', { token: 't-2' }],
        ['pages[1]', { n: 1 }],
      ]),
    );
    expect(() => open(id)).toThrow();
    expect(() => rebindSealedEntries(undefined, id, redrive, stored)).toThrow(SecretResultsKeyMissingError);
  });

  it('reads the results map of an earlier version as progress entries, its sealed ones each sealed as an entry', () => {
    const redrive = 'c'.repeat(32);
    const results = sealSecretResults(cipher, id, { get: { token: 't-1' }, count: 2 }, isSecret);
    const entries = resultsAsEntries(cipher, id, redrive, results);
    expect(JSON.stringify(entries)).not.toContain('t-1');
    const opened = openProgressEntries(
      cipher,
      redrive,
      entries.map(([address, json]) => [address, JSON.parse(json) as unknown]),
      (address) => isSecret(address),
    );
    expect(opened).toEqual(
      new Map<string, unknown>([
        ['count', 2],
        ['get', { token: 't-1' }],
      ]),
    );
    expect(resultsAsEntries(undefined, id, id, { count: 2 })).toEqual([['count', '2']]);
    expect(() => resultsAsEntries(undefined, id, redrive, results)).toThrow(SecretResultsKeyMissingError);
  });
});
