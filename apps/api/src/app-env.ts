import type { Principal } from '@ces/accounts';
import type { ConsoleSession } from '@ces/store';
import type { Format } from './formats/negotiate.ts';

/** What middleware asked every answer to carry (response-headers.ts), and whether the answer already has it. */
export interface PendingResponseHeaders {
  values: Record<string, string>;
  written: boolean;
}

/** The typed Hono environment: what middleware puts on the context for the routes. */
export interface AppEnv {
  Variables: {
    requestId: string;
    format: Format;
    principal: Principal;
    responseHeaders: PendingResponseHeaders;
    /** The execution a request started, for the access line (a path names the others). */
    executionId: string;
    /** The console's signed-in session (its CSRF token), on console pages. */
    consoleSession: ConsoleSession;
  };
}
