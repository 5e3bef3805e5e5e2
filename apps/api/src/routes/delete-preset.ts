import type { PresetStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { checkedPresetName, presetStoreOrUnavailable, requirePresetWriter } from '../presets/preset-access.ts';

export function deletePresetRoute(deps: { presets?: PresetStore }) {
  return new Hono<AppEnv>().delete('/presets/:name', async (c) => {
    const presets = presetStoreOrUnavailable(deps.presets);
    const principal = c.get('principal');
    requirePresetWriter(principal, 'delete presets');
    if (!(await presets.delete(principal.account, checkedPresetName(c.req.param('name'))))) throw new ApiError('NOT_FOUND', 'No such preset.');
    return c.body(null, 204);
  });
}
