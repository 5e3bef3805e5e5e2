import type { PresetStore } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { bodyText } from '../formats/body-text.ts';
import { parsePresetRequest } from '../formats/preset-request.ts';
import { presetDetails } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';
import { PRESET_NAME, presetStoreOrUnavailable, requirePresetWriter } from '../presets/preset-access.ts';
import { BASE_PATH } from '../base-path.ts';
import { presetNameParamsSchema, presetRequestBodySchema } from '../formats/request-schemas.ts';
import { ACCOUNT_SECURITY, answer, bothFormats, errorAnswers, type Operation } from '../openapi/operation.ts';
import { presetDetailsSchema } from '../openapi/wire-schemas.ts';

export const putPresetOperation: Operation = {
  method: 'put',
  path: `${BASE_PATH}/presets/{name}`,
  operationId: 'putPreset',
  tags: ['Presets'],
  summary: 'Create or replace a preset',
  description: 'Extension. Stores a named input set (values sealed at rest) that a run names with `preset`.',
  security: ACCOUNT_SECURITY,
  request: { params: presetNameParamsSchema, body: { description: 'The inputs.', required: true, content: bothFormats(presetRequestBodySchema) } },
  responses: {
    200: answer('Replaced; values masked.', presetDetailsSchema),
    201: answer('Created; values masked.', presetDetailsSchema),
    ...errorAnswers(['CONFLICT', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE']),
  },
};

/** Creates (201) or replaces (200) a preset; answers with its inputs, values masked. */
export function putPresetRoute(deps: { presets?: PresetStore; bodyLimitBytes: number; maxPresetsPerAccount: number }) {
  return new Hono<AppEnv>().put('/presets/:name', requestBodyLimit({ maxBytes: deps.bodyLimitBytes }), async (c) => {
    const presets = presetStoreOrUnavailable(deps.presets);
    const principal = c.get('principal');
    requirePresetWriter(principal, 'write presets');
    const name = c.req.param('name');
    if (!PRESET_NAME.test(name)) throw new ApiError('BAD_REQUEST', 'A preset name is 1 to 128 letters, digits and . _ @ -, starting with a letter or digit.');
    const contentType = c.req.header('content-type');
    const inputs = parsePresetRequest(bodyText(await readFromClient(c, () => c.req.arrayBuffer()), contentType), contentType);
    const outcome = await presets.put(principal.account, name, inputs);
    if (outcome === 'too-many') throw new ApiError('CONFLICT', `This account already keeps ${deps.maxPresetsPerAccount} presets; delete one first.`);
    return respond(c, outcome === 'created' ? 201 : 200, presetDetails({ name, inputs: inputs.map(({ name: input, secret }) => ({ name: input, secret })) }));
  });
}
