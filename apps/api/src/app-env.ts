import type { Principal } from '@ces/accounts';
import type { Format } from './formats/negotiate.ts';
import type { PendingResponseHeaders } from './middleware/response-headers.ts';

/** The typed Hono environment: what middleware puts on the context for the routes. */
export interface AppEnv {
  Variables: {
    requestId: string;
    format: Format;
    principal: Principal;
    responseHeaders: PendingResponseHeaders;
    /** The execution a request started, for the access line (a path names the others). */
    executionId: string;
  };
}
