import { CALLBACK_CAPTURE_PATH, RUN_CALLBACK_PATH } from '@ces/store';
import { z } from 'zod';
import { callbackTokenParamsSchema } from '../formats/request-schemas.ts';
import { answer, errorAnswers, type Operation } from './operation.ts';
import { callbackDeliveredSchema } from './wire-schemas.ts';

/** Errors of the public callback URLs: no credentials, so none of theirs; answered in JSON. */
const CALLBACK_ERRORS = ['NOT_FOUND', 'PAYLOAD_TOO_LARGE', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE'] as const;

const captured = {
  200: { description: 'Recorded; the callback has no forwarding URL.', content: { 'text/plain': { schema: z.string() } } },
  302: { description: 'Recorded; on to the forwarding URL of the callback (`Location`).' },
  ...errorAnswers([], CALLBACK_ERRORS),
};

function captureOperation(method: 'get' | 'post'): Operation {
  return {
    method,
    path: `${CALLBACK_CAPTURE_PATH}/{token}`,
    operationId: `captureCallback${method === 'get' ? 'Get' : 'Post'}`,
    tags: ['Callbacks'],
    summary: `Visit a callback URL (${method.toUpperCase()})`,
    description:
      'Public, no credentials: the token is the permission. Records the request — method, query, headers but credentials, body — for the ' +
      "account's GetCallbackData, then redirects to the forwarding URL, or answers 200. Any method is recorded; an unknown or expired token is 404.",
    security: [],
    request: { params: callbackTokenParamsSchema },
    responses: captured,
  };
}

/** The callback routes' files keep to their handlers; their operations are declared here. */
export const callbackOperations: Operation[] = [
  captureOperation('get'),
  captureOperation('post'),
  {
    method: 'post',
    path: `${RUN_CALLBACK_PATH}/{token}`,
    operationId: 'deliverRunCallback',
    tags: ['Callbacks'],
    summary: 'Deliver a call back to a waiting run',
    description:
      'Public, no credentials: the unguessable token is the permission. Hands the body (JSON, else its text) to the run that waits for it, once. ' +
      'A forged, used or expired token is 404; a run that has ended, 409.',
    security: [],
    request: {
      params: callbackTokenParamsSchema,
      body: { description: 'Any body, at most 64 KiB: it becomes the result of the waiting step.', required: false, content: { '*/*': { schema: {} } } },
    },
    responses: { 202: answer('Delivered; the run goes on.', callbackDeliveredSchema), ...errorAnswers(['CONFLICT', 'NOT_ACCEPTABLE'], CALLBACK_ERRORS) },
  },
];
