import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { readFromClient } from '../errors/client-closed-request.ts';
import { requestBodyLimit } from '../middleware/request-body-limit.ts';
import { bodyText } from '../formats/body-text.ts';
import { runAccepted, runResult } from '../formats/representations.ts';
import { respond } from '../formats/respond.ts';
import { parseRunRequest } from '../formats/run-request.ts';
import type { ChoreoLookup } from '../runs/choreo-lookup.ts';
import type { RunLauncher } from '../runs/run-launcher.ts';
import { publicBaseUrlOf } from '../runs/public-base-url.ts';
import type { SealedOutputsOpener } from '../runs/sealed-outputs-opener.ts';
import { choreoIdFromPath } from './choreo-path.ts';

const SOURCE_ID = /^[\x20-\x7e]{0,256}$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function wantsAsync(mode: string | undefined, prefer: string | undefined): boolean {
  if (mode !== undefined) {
    if (mode === 'async') return true;
    if (mode === 'sync') return false;
    throw new ApiError('BAD_REQUEST', 'mode must be "async" or "sync".');
  }
  return prefer?.split(/[,;]/).some((token) => token.trim().toLowerCase() === 'respond-async') ?? false;
}

const withPublicBaseUrl = (publicBaseUrl: string | undefined) => (publicBaseUrl !== undefined ? { publicBaseUrl } : {});

export function runChoreoRoute(deps: {
  choreos: ChoreoLookup;
  launcher: RunLauncher;
  basePath: string;
  bodyLimitBytes: number;
  /** Opens the secret outputs of a run that ended, for its caller. */
  openSealedOutputs: SealedOutputsOpener;
  /** PUBLIC_BASE_URL; without it each run's public address comes from the request's Host. */
  publicBaseUrl?: string;
}) {
  return new Hono<AppEnv>().post('/choreos/:id{.+}', requestBodyLimit({ maxBytes: deps.bodyLimitBytes }), async (c) => {
    const principal = c.get('principal');
    const found = await deps.choreos.find(principal, choreoIdFromPath(c, deps.basePath));
    if (!found) throw new ApiError('NOT_FOUND', 'No such Choreo.');
    const runAsync = wantsAsync(c.req.query('mode'), c.req.header('prefer'));
    const sourceId = c.req.query('source_id') ?? '';
    if (!SOURCE_ID.test(sourceId)) throw new ApiError('BAD_REQUEST', 'source_id must be printable ASCII, at most 256 characters.');
    const storeResults = ['true', '1'].includes(c.req.query('store_results')?.toLowerCase() ?? '');
    const idempotencyKey = c.req.header('idempotency-key');
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new ApiError('BAD_REQUEST', 'Idempotency-Key must be 1 to 255 visible ASCII characters, without spaces.');
    }
    const contentType = c.req.header('content-type');
    // Bytes, not c.req.text(), which would turn what is not UTF-8 into U+FFFD without a word. Its
    // arrayBuffer() costs @hono/node-server one copy of the body (about 1 µs for a small one, a
    // tenth of a millisecond a MiB): the only way to the bytes; they are decoded where they are.
    const request = parseRunRequest(bodyText(await readFromClient(c, () => c.req.arrayBuffer()), contentType), contentType);

    const { record, ended, replayed } = await deps.launcher.launch(principal, found.entry, request, {
      ...(found.version !== undefined ? { choreoVersion: found.version } : {}),
      wait: !runAsync,
      sourceId,
      storeResults,
      ...(idempotencyKey !== undefined ? { idempotencyKey } : {}),
      ...withPublicBaseUrl(publicBaseUrlOf(deps.publicBaseUrl, c.req.header('host'))),
    });
    c.set('executionId', record.id);
    const replayHeader: Record<string, string> = replayed ? { 'Idempotent-Replayed': 'true' } : {};
    if (!runAsync && ended) return respond(c, 200, runResult(deps.openSealedOutputs(record)), replayHeader);
    const location = `${deps.basePath}/choreo-executions/${record.id}`;
    return respond(c, 202, runAccepted(record), { Location: location, ...(runAsync ? { 'Preference-Applied': 'respond-async' } : {}), ...replayHeader });
  });
}
