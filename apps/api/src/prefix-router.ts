import type { Result, Router } from 'hono/router';
import { RegExpRouter } from 'hono/router/reg-exp-router';
import { SmartRouter } from 'hono/router/smart-router';
import { TrieRouter } from 'hono/router/trie-router';

/** Hono's own default: the fastest router that supports every pattern added. */
function defaultRouter<T>(): Router<T> {
  return new SmartRouter<T>({ routers: [new RegExpRouter<T>(), new TrieRouter<T>()] });
}

function isEverywhere(path: string): boolean {
  return path === '*' || path === '/*';
}

/**
 * Routes the paths under `prefix` with one router and all others with another, so that the
 * patterns under the prefix cannot slow down the rest. (Bull Board's routes under `/ops` are
 * beyond Hono's RegExpRouter; in one router with them, the interface was matched by the slower
 * TrieRouter: 3% of a status poll.) Middleware for every path goes to both, in the same order.
 */
export function createPrefixRouter<T>(prefix: string, inside: Router<T> = defaultRouter(), outside: Router<T> = defaultRouter()): Router<T> {
  const isInside = (path: string) => path === prefix || path.startsWith(`${prefix}/`);
  return {
    name: `PrefixRouter(${prefix})`,
    add(method: string, path: string, handler: T) {
      if (isEverywhere(path)) {
        inside.add(method, path, handler);
        outside.add(method, path, handler);
      } else if (isInside(path)) {
        inside.add(method, path, handler);
      } else if (/^\/?[:*]/.test(path)) {
        // A pattern whose first segment is open would also match paths under the prefix, which
        // only the other router sees.
        throw new Error(`The route ${path} would overlap ${prefix}: give it a fixed first segment.`);
      } else {
        outside.add(method, path, handler);
      }
    },
    match(method: string, path: string): Result<T> {
      return isInside(path) ? inside.match(method, path) : outside.match(method, path);
    },
  };
}
