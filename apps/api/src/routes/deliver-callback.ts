import { CALLBACK_TOKEN_PATTERN, type ExecutionQueues, type ExecutionStore, promoteJobs, RUN_CALLBACK_PATH } from '@ces/store';
import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { ApiError } from '../errors/api-error.ts';
import { respond } from '../formats/respond.ts';

/** Largest call back body: it becomes a step result, kept in Redis with the run. */
export const MAX_CALLBACK_BODY_BYTES = 64 * 1024;

/**
 * `POST /run-callbacks/<token>`: public, no credentials (the unguessable token is the permission, and
 * credentials of any account add nothing). Delivers the body to the run waiting for it, once
 * (deliver-callback.lua), then makes the run's delayed job due, so that a worker takes it now. A
 * forged, used or expired token is 404, alike; a run that has ended or is being terminated, 409.
 */
export function deliverCallbackRoute(deps: { executions: ExecutionStore; queues: ExecutionQueues }) {
  return new Hono<AppEnv>().post(`${RUN_CALLBACK_PATH}/:token`, async (c) => {
    const token = c.req.param('token');
    if (!CALLBACK_TOKEN_PATTERN.test(token)) throw new ApiError('NOT_FOUND', 'No such call back.');
    const declared = Number(c.req.header('content-length') ?? 0);
    if (declared > MAX_CALLBACK_BODY_BYTES) throw new ApiError('PAYLOAD_TOO_LARGE', `A call back's body may have at most ${MAX_CALLBACK_BODY_BYTES} bytes.`);
    const text = await c.req.text();
    if (Buffer.byteLength(text) > MAX_CALLBACK_BODY_BYTES)
      throw new ApiError('PAYLOAD_TOO_LARGE', `A call back's body may have at most ${MAX_CALLBACK_BODY_BYTES} bytes.`);
    const delivery = await deps.executions.deliverCallback(token, parseBody(text));
    if (delivery.outcome === 'unknown') throw new ApiError('NOT_FOUND', 'No such call back.');
    if (delivery.outcome === 'not-running') throw new ApiError('CONFLICT', 'The run this call back was for has ended.');
    // Not delayed (the worker is still suspending it): the worker sees the delivery once it has
    // delayed the job, and makes it due itself. Redis failing here fails no delivery already
    // recorded (a retry would find its call back used up): the reconciler makes the job due.
    await promoteJobs(deps.queues, [delivery.executionId]);
    return respond(c, 202, { json: { callback: { delivered: true } }, xml: { root: 'callback', tree: { delivered: 'true' } } });
  });
}

/** The body as the step's result: its JSON parsed, else its text. */
function parseBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}
