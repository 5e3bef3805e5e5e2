import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';

/**
 * Choreo definition snapshots, addressed by the sha256 of their canonical JSON. A run reads the
 * definition it was accepted with, even after the catalogue changes. Snapshots are immutable, so
 * readers may cache them forever; they are few (one per version of each Choreo) and never expire.
 */
export interface DefinitionStore {
  /** Stores the snapshot once; later calls with a digest already saved cost nothing. */
  save(digest: string, definition: unknown): Promise<void>;
  load(digest: string): Promise<string | undefined>;
}

export function createDefinitionStore(deps: { redis: Redis; keys: KeySpace }): DefinitionStore {
  const { redis, keys } = deps;
  const saved = new Set<string>();
  const loaded = new Map<string, string>();
  return {
    async save(digest, definition) {
      if (saved.has(digest)) return;
      await redis.set(keys.definition(digest), JSON.stringify(definition), 'NX');
      saved.add(digest);
    },
    async load(digest) {
      const cached = loaded.get(digest);
      if (cached !== undefined) return cached;
      const json = await redis.get(keys.definition(digest));
      if (json === null) return undefined;
      loaded.set(digest, json);
      return json;
    },
  };
}
