import type { Context } from 'hono';
import { ApiError } from '../errors/api-error.ts';

const MAX_ID_LENGTH = 512;

/** The Choreo id of a `/choreos/<id>` request, with its leading slash. */
export function choreoIdFromPath(c: Context, basePath: string): string {
  const prefix = `${basePath}/choreos`;
  const id = c.req.path.slice(prefix.length);
  if (id.length > MAX_ID_LENGTH) throw new ApiError('NOT_FOUND', 'No such Choreo.');
  return id;
}
