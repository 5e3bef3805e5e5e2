import type { PresetStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { presetList } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { presetStoreOrUnavailable } from '../presets/preset-access.ts';

export function listPresetsRoute(deps: { presets?: PresetStore }) {
  return new Hono<AppEnv>().get('/presets', async (c) => {
    const presets = presetStoreOrUnavailable(deps.presets);
    return respond(c, 200, presetList(await presets.list(c.get('principal').account)));
  });
}
