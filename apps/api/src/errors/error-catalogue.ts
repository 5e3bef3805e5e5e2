/**
 * Every error the API answers with: its code, its HTTP status and the message used when the
 * thrower gives none. Codes and statuses map one to one.
 */
export const ERROR_CATALOGUE = {
  BAD_REQUEST: { status: 400, message: 'The request is not valid.' },
  UNAUTHORIZED: { status: 401, message: 'Authentication is required: HTTP Basic with an account user or application.' },
  FORBIDDEN: { status: 403, message: 'These credentials may not do this.' },
  NOT_FOUND: { status: 404, message: 'Nothing here.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'This method is not allowed here.' },
  NOT_ACCEPTABLE: { status: 406, message: 'None of the formats in Accept can be produced: use application/json or application/xml.' },
  CONFLICT: { status: 409, message: 'The resource is not in a state that allows this.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The body must be application/json or application/xml, as Content-Type says.' },
  TOO_MANY_REQUESTS: { status: 429, message: 'A limit refused this request for now. Retry-After says when to try again.' },
  INTERNAL_ERROR: { status: 500, message: 'Something went wrong on our side. The request id identifies it in our logs.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'The service is briefly unavailable. Retry shortly.' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Retry-After of every answer that says Redis is unavailable: a restart or failover takes seconds. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = '2';
