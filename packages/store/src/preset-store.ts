import type { Redis } from 'ioredis';
import type { KeySpace } from './keys.ts';
import { registerScripts } from './scripts.ts';
import type { SecretCipher } from './secret-cipher.ts';

/** One input of a preset. `secret` inputs are never shown, not even to their account. */
export interface PresetInput {
  name: string;
  value: string;
  secret: boolean;
}

/** What may be shown of a preset: its inputs' names, never their values. */
export interface PresetDescription {
  name: string;
  inputs: { name: string; secret: boolean }[];
  updated: number;
}

export type PutPresetOutcome = 'created' | 'replaced' | 'too-many';

export interface PresetStore {
  put(account: string, name: string, inputs: readonly PresetInput[]): Promise<PutPresetOutcome>;
  /** Names, sorted. */
  list(account: string): Promise<string[]>;
  describe(account: string, name: string): Promise<PresetDescription | undefined>;
  /** The inputs with their values in clear, for a run or for the account's own look at them. */
  read(account: string, name: string): Promise<PresetInput[] | undefined>;
  delete(account: string, name: string): Promise<boolean>;
  /** Seals again under the current key every value sealed with a previous one; returns how many. */
  reseal(account: string): Promise<number>;
}

interface StoredPreset {
  inputs: { name: string; secret: boolean; value: string }[];
  updated: number;
}

/** Each value is bound to its account, preset and input: a value copied elsewhere does not open. */
export function presetValueContext(account: string, preset: string, input: string): string {
  return `preset\0${account}\0${preset}\0${input}`;
}

export function createPresetStore(deps: { redis: Redis; keys: KeySpace; cipher: SecretCipher; maxPresetsPerAccount: number }): PresetStore {
  const { redis, keys, cipher } = deps;
  const run = registerScripts(redis);

  async function stored(account: string, name: string): Promise<{ json: string; preset: StoredPreset } | undefined> {
    const json = await redis.hget(keys.accountPresets(account), name);
    return json === null ? undefined : { json, preset: JSON.parse(json) as StoredPreset };
  }

  return {
    async put(account, name, inputs) {
      const preset: StoredPreset = {
        inputs: inputs.map((input) => ({
          name: input.name,
          secret: input.secret,
          value: cipher.seal(input.value, presetValueContext(account, name, input.name)),
        })),
        updated: Date.now(),
      };
      const outcome = await run('putPreset', [keys.accountPresets(account)], [name, JSON.stringify(preset), deps.maxPresetsPerAccount]);
      return outcome === 1 ? 'created' : outcome === 0 ? 'replaced' : 'too-many';
    },

    async list(account) {
      return (await redis.hkeys(keys.accountPresets(account))).sort();
    },

    async describe(account, name) {
      const found = await stored(account, name);
      if (!found) return undefined;
      return { name, inputs: found.preset.inputs.map(({ name: input, secret }) => ({ name: input, secret })), updated: found.preset.updated };
    },

    async read(account, name) {
      const found = await stored(account, name);
      if (!found) return undefined;
      return found.preset.inputs.map((input) => ({
        name: input.name,
        secret: input.secret,
        value: cipher.open(input.value, presetValueContext(account, name, input.name)),
      }));
    },

    async delete(account, name) {
      return (await redis.hdel(keys.accountPresets(account), name)) === 1;
    },

    async reseal(account) {
      let resealed = 0;
      for (const name of await redis.hkeys(keys.accountPresets(account))) {
        const found = await stored(account, name);
        if (!found?.preset.inputs.some((input) => cipher.sealedWithOldKey(input.value))) continue;
        const renewed: StoredPreset = {
          ...found.preset,
          inputs: found.preset.inputs.map((input) => {
            if (!cipher.sealedWithOldKey(input.value)) return input;
            const context = presetValueContext(account, name, input.name);
            return { ...input, value: cipher.seal(cipher.open(input.value, context), context) };
          }),
        };
        resealed += Number(await run('resealField', [keys.accountPresets(account)], [name, found.json, JSON.stringify(renewed)]));
      }
      return resealed;
    },
  };
}
