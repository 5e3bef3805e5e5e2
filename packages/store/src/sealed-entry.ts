import type { SecretCipher } from './secret-cipher.ts';

/**
 * Where a stored map of named values keeps those that are secret (a record's outputs, a
 * checkpoint's step results): sealed together as one entry, under a name none of them can have
 * (names are identifiers), so that every script that writes the map keeps them sealed as they are.
 */
export const SEALED_ENTRY = '$sealed';

/** What one kind of map is sealed with: its context (binding it to its execution) and the error for a missing key. */
export interface SealedMapKind {
  context: string;
  keyMissing(action: 'seal' | 'open'): Error;
}

/** The map as it is stored: the values `isSecret` names sealed together under SEALED_ENTRY, the others as they are. */
export function sealMap<T>(
  cipher: SecretCipher | undefined,
  map: Readonly<Record<string, T>>,
  isSecret: (name: string) => boolean,
  kind: SealedMapKind,
): Record<string, T | string> {
  const clear: Record<string, T | string> = {};
  const sealed: Record<string, T> = {};
  for (const [name, value] of Object.entries(map)) {
    if (name === SEALED_ENTRY) continue;
    if (isSecret(name)) sealed[name] = value;
    else clear[name] = value;
  }
  if (Object.keys(sealed).length === 0) return clear;
  if (!cipher) throw kind.keyMissing('seal');
  return { ...clear, [SEALED_ENTRY]: cipher.seal(JSON.stringify(sealed), kind.context) };
}

/** The stored map with its sealed values opened in among the others. */
export function openMap<T>(cipher: SecretCipher | undefined, map: Readonly<Record<string, T | string>>, kind: SealedMapKind): Record<string, T | string> {
  const sealed = map[SEALED_ENTRY];
  if (typeof sealed !== 'string') return { ...map };
  if (!cipher) throw kind.keyMissing('open');
  const { [SEALED_ENTRY]: _sealed, ...clear } = map;
  return { ...clear, ...(JSON.parse(cipher.open(sealed, kind.context)) as Record<string, T>) };
}

/** The stored map with its sealed entry sealed again under the current key, when a previous one sealed it; undefined when there is nothing to reseal. */
export function resealMap<T>(cipher: SecretCipher, map: Readonly<Record<string, T | string>>, context: string): Record<string, T | string> | undefined {
  const sealed = map[SEALED_ENTRY];
  if (typeof sealed !== 'string' || !cipher.sealedWithOldKey(sealed)) return undefined;
  return { ...map, [SEALED_ENTRY]: cipher.seal(cipher.open(sealed, context), context) };
}
