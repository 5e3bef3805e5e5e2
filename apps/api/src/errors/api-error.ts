import type { RefusingLimit } from '@ces/observability';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ERROR_CATALOGUE, type ErrorCode } from './error-catalogue.ts';

/** The one error type routes throw; `onError` renders it in the negotiated format. */
export class ApiError extends HTTPException {
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;
  /** The limit that refused the request, counted in the metrics. */
  readonly limit?: RefusingLimit;

  constructor(code: ErrorCode, message?: string, options: { headers?: Record<string, string>; cause?: unknown; limit?: RefusingLimit } = {}) {
    const entry = ERROR_CATALOGUE[code];
    super(entry.status as ContentfulStatusCode, { message: message ?? entry.message, cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.headers = options.headers ?? {};
    if (options.limit) this.limit = options.limit;
  }
}
