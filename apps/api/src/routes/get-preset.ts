import type { PresetStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { presetDetails } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { checkedPresetName, presetStoreOrUnavailable, requirePresetWriter } from '../presets/preset-access.ts';
import { BASE_PATH } from '../base-path.ts';
import { firstIssue, presetNameParamsSchema, presetQuerySchema } from '../formats/request-schemas.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { presetDetailsSchema } from '../openapi/wire-schemas.ts';

export const getPresetOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/presets/{name}`,
  operationId: 'getPreset',
  tags: ['Presets'],
  summary: 'Preset details',
  description: "Extension. A preset's inputs, values masked; `?values=shown` shows those not secret, to credentials that may write presets.",
  security: ACCOUNT_SECURITY,
  request: { params: presetNameParamsSchema, query: presetQuerySchema },
  responses: { 200: answer('The preset.', presetDetailsSchema), ...errorAnswers() },
};

/**
 * A preset's inputs by name, every value masked; `?values=shown` shows the values of inputs not
 * marked secret, to credentials that may write presets. A secret value is never shown again.
 */
export function getPresetRoute(deps: { presets?: PresetStore }) {
  return new Hono<AppEnv>().get('/presets/:name', async (c) => {
    const presets = presetStoreOrUnavailable(deps.presets);
    const principal = c.get('principal');
    const name = checkedPresetName(c.req.param('name'));
    const query = presetQuerySchema.safeParse(c.req.query());
    if (!query.success) throw new ApiError('BAD_REQUEST', firstIssue(query.error));
    const shown = query.data.values;
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
