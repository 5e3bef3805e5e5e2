import { sealRunInputs, type PresetStore, type SecretCipher } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';
import { PRESET_NAME, presetStoreOrUnavailable } from '../presets/preset-access.ts';

/** What a run takes from the preset its body names (`preset`), and how those inputs are kept. */
export interface PresetInputs {
  /** The preset's inputs by name; 404 when the account has no such preset. */
  read(account: string, name: string): Promise<Record<string, string>>;
  /** Seals the inputs a run took from its preset, for its record. */
  seal(executionId: string, inputs: Readonly<Record<string, string>>): string;
  /** A keyed digest of the sealed inputs, for an Idempotency-Key's comparison of runs. */
  fingerprint(inputs: Readonly<Record<string, string>>): string;
}

/** Without the secrets key (no preset store), a run that names a preset is answered 503. */
export function createPresetInputs(deps: { presets?: PresetStore; cipher?: SecretCipher }): PresetInputs {
  return {
    async read(account, name) {
      const presets = presetStoreOrUnavailable(deps.presets);
      const inputs = PRESET_NAME.test(name) ? await presets.read(account, name) : undefined;
      // As the original answers: a run must not go on without the inputs it expects.
      if (!inputs) throw new ApiError('NOT_FOUND', `preset "${name}" does not exist`);
      return Object.fromEntries(inputs.map((input) => [input.name, input.value]));
    },
    seal(executionId, inputs) {
      if (!deps.cipher) throw noKey();
      return sealRunInputs(deps.cipher, executionId, inputs);
    },
    fingerprint(inputs) {
      if (!deps.cipher) throw noKey();
      return deps.cipher.fingerprint(JSON.stringify(Object.entries(inputs).sort(([a], [b]) => a.localeCompare(b))));
    },
  };
}

/**
 * A run's inputs with its preset's beneath them: the run's own win. `fromPreset` are the names the
 * run took from the preset, which its record keeps sealed.
 */
export async function withPresetInputs(
  presetInputs: PresetInputs | undefined,
  account: string,
  request: { inputs: Record<string, string>; preset?: string },
): Promise<{ inputs: Record<string, string>; preset: Record<string, string> }> {
  if (request.preset === undefined) return { inputs: request.inputs, preset: {} };
  if (!presetInputs) throw new ApiError('SERVICE_UNAVAILABLE', 'Presets are not available: this service has no SECRETS_KEY to keep them with.');
  const preset = await presetInputs.read(account, request.preset);
  return { inputs: { ...preset, ...request.inputs }, preset };
}

function noKey(): ApiError {
  return new ApiError('SERVICE_UNAVAILABLE', "This run's secret inputs cannot be kept: this service has no SECRETS_KEY.");
}

/** The inputs a run keeps sealed; without a way to seal them, 503 rather than keep them in clear. */
export function sealInputs(presetInputs: PresetInputs | undefined, executionId: string, inputs: Readonly<Record<string, string>>): string {
  if (!presetInputs) throw noKey();
  return presetInputs.seal(executionId, inputs);
}
