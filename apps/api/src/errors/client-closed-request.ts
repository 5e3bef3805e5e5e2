import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';

/**
 * The status recorded for a request whose client went away before it was read in full: it
 * disconnected mid-body, or the server's request timeout (server.ts) cut it off. It is nginx's
 * "client closed request", which log and metrics tools know, and not a status any client receives:
 * there is no one left to answer (for a timed-out request Node itself has already sent 408).
 * Not a 5xx, for it is no failure of ours — one per dropped connection would let any tenant page
 * the operators (the 5xx alert) and flood the error log — and not 400 either, which would mix it
 * with requests that were read and refused, an answer their clients did get.
 */
export const CLIENT_CLOSED_REQUEST_STATUS = 499;

/** A request body that could not be read because the client's connection closed; never answered. */
export class ClientClosedRequest extends Error {
  constructor(cause: unknown) {
    super('The client closed the connection before its request was read.', { cause });
    this.name = 'ClientClosedRequest';
  }
}

/**
 * Reads from the request with `read`. A failure once the client's connection is gone — the signal
 * of the request aborts as it closes — is the client's doing (`Error: aborted`, ECONNRESET, a
 * premature close) and becomes a ClientClosedRequest. Anything else is left as it is, so that a
 * fault of ours still answers 500.
 */
export async function readFromClient<T>(c: Context, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (!(error instanceof HTTPException) && c.req.raw.signal.aborted) throw new ClientClosedRequest(error);
    throw error;
  }
}
