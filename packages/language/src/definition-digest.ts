import { createHash } from 'node:crypto';
import type { ChoreoDefinition } from './definition.ts';

/** sha256 (hex) of the canonical JSON: object keys sorted, so formatting and key order do not matter. */
export function definitionDigest(definition: ChoreoDefinition): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
