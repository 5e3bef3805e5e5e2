import type { Principal } from '@ces/accounts';
import type { PresetStore } from '@ces/store';
import { ApiError } from '../errors/api-error.ts';

/** A preset's name, as it appears in its path and in a run body's `preset`. */
export const PRESET_NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$/;

/** The preset store, or 503 when the service was started without a key to seal presets with. */
export function presetStoreOrUnavailable(presets: PresetStore | undefined): PresetStore {
  if (!presets) throw new ApiError('SERVICE_UNAVAILABLE', 'Presets are not available: this service has no SECRETS_KEY to keep them with.');
  return presets;
}

/** An account's presets are its own: any other name, or another account's, is simply not there. */
export function checkedPresetName(name: string): string {
  if (!PRESET_NAME.test(name)) throw new ApiError('NOT_FOUND', 'No such preset.');
  return name;
}

/** Changing presets, or seeing their values, is for users and for applications granted it. */
export function requirePresetWriter(principal: Principal, doing: string): void {
  if (!principal.rights.includes('presets')) {
    throw new ApiError('FORBIDDEN', `These credentials may not ${doing}: an application needs the "presets" right.`);
  }
}
