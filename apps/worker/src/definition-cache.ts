import type { ChoreoDefinition } from '@ces/language';
import type { DefinitionStore } from '@ces/store';

/** The definition snapshots this worker has read, parsed once: a snapshot never changes. */
export function createDefinitionCache(definitions: DefinitionStore) {
  const parsed = new Map<string, ChoreoDefinition>();
  return {
    async load(digest: string): Promise<ChoreoDefinition | undefined> {
      const cached = parsed.get(digest);
      if (cached) return cached;
      const json = await definitions.load(digest);
      if (json === undefined) return undefined;
      const definition = JSON.parse(json) as ChoreoDefinition;
      parsed.set(digest, definition);
      return definition;
    },
  };
}

export type DefinitionCache = ReturnType<typeof createDefinitionCache>;
