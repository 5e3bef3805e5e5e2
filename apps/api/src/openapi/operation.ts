import type { ResponseConfig, RouteConfig } from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from '../errors/error-catalogue.ts';
import { errorBodySchema } from './wire-schemas.ts';

/**
 * One operation of the OpenAPI document, declared by the route that serves it, with the schemas it
 * validates with: the document is generated from these, so it says what the code does.
 */
export type Operation = RouteConfig & { summary: string; description: string };

/** The security requirement of every operation that needs an account's credentials. */
export const ACCOUNT_SECURITY: Operation['security'] = [{ basicAuth: [], serviceDomain: [] }];

/** A body in both formats, from one schema (its `xml.name` is the XML root). */
export function bothFormats(schema: z.ZodType) {
  return { 'application/json': { schema }, 'application/xml': { schema } };
}

export function answer(description: string, schema: z.ZodType, headers?: ResponseConfig['headers']): ResponseConfig {
  return { description, content: bothFormats(schema), ...(headers ? { headers } : {}) };
}

/** Errors any request to the interface may meet: its credentials, domain header, Accept, limits and Redis. */
const ACCOUNT_ERRORS: readonly ErrorCode[] = [
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'NOT_ACCEPTABLE',
  'TOO_MANY_REQUESTS',
  'INTERNAL_ERROR',
  'SERVICE_UNAVAILABLE',
];

const WHEN: Record<ErrorCode, string> = {
  BAD_REQUEST: 'A malformed request: the domain header, a parameter or the body.',
  UNAUTHORIZED: 'Missing or wrong credentials (with `WWW-Authenticate`).',
  FORBIDDEN: 'The credentials may not do this, or the request came over plain HTTP behind a proxy.',
  NOT_FOUND: 'Nothing here for these credentials.',
  METHOD_NOT_ALLOWED: 'Another method is needed (`Allow` lists them).',
  NOT_ACCEPTABLE: 'Accept names neither JSON nor XML.',
  CONFLICT: 'The resource is not in a state that allows this.',
  PAYLOAD_TOO_LARGE: 'The body, or what it would store, is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'Content-Type is not one the body may have.',
  TOO_MANY_REQUESTS: 'A limit refused it for now (`Retry-After`).',
  INTERNAL_ERROR: 'A fault of the service; the request id finds it in the logs.',
  SERVICE_UNAVAILABLE: 'Redis, or what the request needs, is briefly unavailable (`Retry-After`).',
};

const header = (description: string) => ({ description, schema: { type: 'string' as const } });

/** Headers some errors carry. */
const ERROR_HEADERS: Partial<Record<ErrorCode, ResponseConfig['headers']>> = {
  UNAUTHORIZED: { 'WWW-Authenticate': header('`Basic realm="…", charset="UTF-8"`.') },
  METHOD_NOT_ALLOWED: { Allow: header('The methods of the path.') },
  TOO_MANY_REQUESTS: { 'Retry-After': header('Seconds to wait.') },
  SERVICE_UNAVAILABLE: { 'Retry-After': header('Seconds to wait.') },
};

/** Said on a run's answer that repeats an earlier request's with the same Idempotency-Key. */
export const RUN_REPLAYED_HEADERS = { 'Idempotent-Replayed': header('`true` when this is the answer of an earlier request with the same Idempotency-Key.') };

/** Headers of a run that goes on: where it is, and what the service did with `Prefer` and `Idempotency-Key`. */
export const RUN_ACCEPTED_HEADERS = {
  Location: header('The execution status of the run.'),
  'Preference-Applied': header('`respond-async` when the run was asked to be asynchronous.'),
  ...RUN_REPLAYED_HEADERS,
};

/** The error answers of an operation: the common ones of the interface and `more`, each in the one error shape. */
export function errorAnswers(more: readonly ErrorCode[] = [], common: readonly ErrorCode[] = ACCOUNT_ERRORS): Record<number, ResponseConfig> {
  const codes = [...new Set([...common, ...more])];
  return Object.fromEntries(codes.map((code) => [ERROR_CATALOGUE[code].status, answer(`${code}: ${WHEN[code]}`, errorBodySchema, ERROR_HEADERS[code])]));
}
