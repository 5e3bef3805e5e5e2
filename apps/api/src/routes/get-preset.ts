import type { PresetStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { presetDetails } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { checkedPresetName, presetStoreOrUnavailable, requirePresetWriter } from '../presets/preset-access.ts';

/**
 * A preset's inputs by name, every value masked; `?values=shown` shows the values of inputs not
 * marked secret, to credentials that may write presets. A secret value is never shown again.
 */
export function getPresetRoute(deps: { presets?: PresetStore }) {
  return new Hono<AppEnv>().get('/presets/:name', async (c) => {
    const presets = presetStoreOrUnavailable(deps.presets);
    const principal = c.get('principal');
    const name = checkedPresetName(c.req.param('name'));
    const shown = c.req.query('values');
    if (shown !== undefined && shown !== 'shown' && shown !== 'masked') throw new ApiError('BAD_REQUEST', 'values must be "shown" or "masked".');
    if (shown === 'shown') {
      requirePresetWriter(principal, 'see preset values');
      const inputs = await presets.read(principal.account, name);
      if (!inputs) throw new ApiError('NOT_FOUND', 'No such preset.');
      return respond(c, 200, presetDetails({ name, inputs }));
    }
    const preset = await presets.describe(principal.account, name);
    if (!preset) throw new ApiError('NOT_FOUND', 'No such preset.');
    return respond(c, 200, presetDetails(preset));
  });
}
