/** Why the service could not be reached at all; a program may retry `unreachable` and `timeout`. */
export type ConnectionProblem = 'unreachable' | 'untrusted-certificate' | 'timeout' | 'not-the-service';

/** The request never got an answer of the service: a wrong URL, a certificate not trusted, no network. */
export class ConnectionError extends Error {
  readonly problem: ConnectionProblem;
  constructor(problem: ConnectionProblem, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ConnectionError';
    this.problem = problem;
  }
}

/** The service answered with an error (its `{"error": {...}}` body), or with something it never sends. */
export class ApiError extends Error {
  readonly status: number;
  /** `NOT_FOUND`, `UNAUTHORIZED`…: the error code, one to one with the status. */
  readonly code: string;
  readonly requestId: string | undefined;
  /** For a Choreo document that is not one: each problem at its JSON pointer. */
  readonly problems: readonly { pointer: string; message: string }[];
  /** Seconds to wait before trying again, on 429 and 503. */
  readonly retryAfterSeconds: number | undefined;
  constructor(
    status: number,
    details: { code?: string; message?: string; requestId?: string; problems?: { pointer: string; message: string }[]; retryAfterSeconds?: number },
  ) {
    super(details.message ?? `the service answered ${status}`);
    this.name = 'ApiError';
    this.status = status;
    this.code = details.code ?? `HTTP_${status}`;
    this.requestId = details.requestId;
    this.problems = details.problems ?? [];
    this.retryAfterSeconds = details.retryAfterSeconds;
  }
}

const CERTIFICATE_CODES = new Set([
  'SELF_SIGNED_CERT_IN_CHAIN',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_UNTRUSTED',
]);

/** A socket or TLS failure of Node, as a ConnectionError that says what to do about it. */
export function connectionErrorOf(error: unknown, origin: string): ConnectionError {
  const code = (error as { code?: string }).code ?? '';
  const reason = (error as Error).message;
  if (CERTIFICATE_CODES.has(code)) {
    return new ConnectionError(
      'untrusted-certificate',
      `the certificate of ${origin} is not trusted (${reason}); give the CA that signed it (the service's own certificate file, for a self-signed one)`,
      { cause: error },
    );
  }
  if (code === 'ETIMEDOUT' || code === 'ABORT_ERR_TIMEOUT') return new ConnectionError('timeout', `${origin} did not answer in time`, { cause: error });
  if (code === 'EPROTO' || code === 'ERR_SSL_WRONG_VERSION_NUMBER' || /wrong version number|packet length/i.test(reason)) {
    return new ConnectionError('not-the-service', `${origin} does not speak HTTPS (its answer is no TLS handshake); check the URL`, { cause: error });
  }
  return new ConnectionError('unreachable', `cannot reach ${origin} (${code || reason}); check the URL and that the service runs`, { cause: error });
}
