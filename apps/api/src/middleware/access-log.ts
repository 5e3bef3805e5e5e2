import { accessLogLevel, createAccessLogWriter, type Logger } from '@ces/observability';
import { withoutCallbackToken } from '@ces/store';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { BASE_PATH } from '../base-path.ts';
import { matchedRoute } from './matched-route.ts';

const EXECUTION_PATH = new RegExp(`^${BASE_PATH.replaceAll('.', '\\.')}/choreo-executions/([0-9a-f]{32})$`);
const CHOREO_PATH = new RegExp(`^${BASE_PATH.replaceAll('.', '\\.')}/choreos(/.+)$`);

/**
 * One JSON line per request once it is answered: request id, method, path (never the query or a
 * header, so never a secret; nor a call back's token, which is a permission), route, status, duration, and who asked — account and credential
 * name — with the execution the request started or the path names, and the Choreo it names.
 */
export function accessLog(options: { logger: Logger; probes: ReadonlySet<string> }): MiddlewareHandler<AppEnv> {
  const writeLine = createAccessLogWriter(options.logger);
  return async (c, next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      const path = withoutCallbackToken(c.req.path);
      const principal = c.get('principal');
      // Balancers' probes would drown the other lines: their successes are debug.
      const level = options.probes.has(path) && c.res.status < 400 ? 'debug' : accessLogLevel(c.res.status);
      writeLine(level, {
        requestId: c.get('requestId') ?? '',
        method: c.req.method,
        path,
        route: matchedRoute(c),
        status: c.res.status,
        durationMs: performance.now() - started,
        account: principal?.account,
        principal: principal?.name,
        executionId: c.get('executionId') ?? EXECUTION_PATH.exec(path)?.[1],
        choreo: CHOREO_PATH.exec(path)?.[1],
      });
    }
  };
}
