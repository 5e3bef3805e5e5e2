import type { PresetStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { checkedPresetName, presetStoreOrUnavailable, requirePresetWriter } from '../presets/preset-access.ts';
import { BASE_PATH } from '../base-path.ts';
import { presetNameParamsSchema } from '../formats/request-schemas.ts';
import { ACCOUNT_SECURITY, errorAnswers, type Operation } from '../openapi/operation.ts';

export const deletePresetOperation: Operation = {
  method: 'delete',
  path: `${BASE_PATH}/presets/{name}`,
  operationId: 'deletePreset',
  tags: ['Presets'],
  summary: 'Delete a preset',
  description: 'Extension. Runs already accepted keep the inputs they took from it.',
  security: ACCOUNT_SECURITY,
  request: { params: presetNameParamsSchema },
  responses: { 204: { description: 'Deleted.' }, ...errorAnswers() },
};

export function deletePresetRoute(deps: { presets?: PresetStore }) {
  return new Hono<AppEnv>().delete('/presets/:name', async (c) => {
    const presets = presetStoreOrUnavailable(deps.presets);
    const principal = c.get('principal');
    requirePresetWriter(principal, 'delete presets');
    if (!(await presets.delete(principal.account, checkedPresetName(c.req.param('name'))))) throw new ApiError('NOT_FOUND', 'No such preset.');
    return c.body(null, 204);
  });
}
