import { getPath as honoPath } from 'hono/utils/url';
import { BASE_PATH } from './base-path.ts';

// The joins clients make: base path, collection, id. Only there may a slash be doubled.
const JOINS = new RegExp(`^${BASE_PATH.replaceAll('.', '\\.')}/+(choreos|choreo-executions)(?:/+(?=[^/])|$)`);

/**
 * The path a request is routed by. Clients of the original service join their base path, the
 * collection and an id that starts with a slash, as the original's Node SDK does
 * (`…/choreos//Library/…`): the empty segments at those joins are dropped, so such a request is
 * answered exactly as its single-slash form. Nothing else changes: an empty segment inside a
 * Choreo id, dot segments and encoded slashes reach the routes as before, which refuse them.
 */
export function interfacePath(path: string): string {
  const join = JOINS.exec(path);
  if (!join) return path;
  const rest = path.slice(join[0].length);
  return `${BASE_PATH}/${join[1]}${rest === '' ? '' : `/${rest}`}`;
}

/** Hono's own path of a request, then `interfacePath`. */
export function routedPath(request: Request): string {
  return interfacePath(honoPath(request));
}
