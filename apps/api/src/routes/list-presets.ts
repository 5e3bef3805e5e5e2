import type { PresetStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { presetList } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { presetStoreOrUnavailable } from '../presets/preset-access.ts';
import { BASE_PATH } from '../base-path.ts';
import { ACCOUNT_SECURITY, answer, errorAnswers, type Operation } from '../openapi/operation.ts';
import { presetListSchema } from '../openapi/wire-schemas.ts';

export const listPresetsOperation: Operation = {
  method: 'get',
  path: `${BASE_PATH}/presets`,
  operationId: 'listPresets',
  tags: ['Presets'],
  summary: "List the account's presets",
  description: 'Extension. The names of the stored input sets of the account.',
  security: ACCOUNT_SECURITY,
  responses: { 200: answer('The preset names.', presetListSchema), ...errorAnswers() },
};

export function listPresetsRoute(deps: { presets?: PresetStore }) {
  return new Hono<AppEnv>().get('/presets', async (c) => {
    const presets = presetStoreOrUnavailable(deps.presets);
    return respond(c, 200, presetList(await presets.list(c.get('principal').account)));
  });
}
