import { Hono } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { z } from 'zod';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from '../errors/error-catalogue.ts';
import type { Operation } from '../openapi/operation.ts';

/** Paths that balancers probe, often every few seconds. */
export const PROBE_PATHS: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

export interface HealthProbe {
  /** Resolves true when Redis answers a PING in time. */
  redisAnswers(): Promise<boolean>;
  liveWorkers(): Promise<number>;
}

const readiness = z.object({ status: z.enum(['ready', 'unavailable']), redis: z.enum(['up', 'down']), workers: z.number().int() }).meta({ id: 'Readiness' });

export const healthOperations: Operation[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'liveness',
    tags: ['Service'],
    summary: 'Liveness',
    description: 'For orchestrators: 200 while the process runs. No credentials; JSON whatever Accept says.',
    security: [],
    responses: { 200: { description: 'Alive.', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } } },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    tags: ['Service'],
    summary: 'Readiness',
    description: 'For load balancers: 200 while Redis answers, 503 otherwise; the live worker count is for people. No credentials.',
    security: [],
    responses: {
      200: { description: 'Ready.', content: { 'application/json': { schema: readiness } } },
      503: { description: 'Redis does not answer (`Retry-After`).', content: { 'application/json': { schema: readiness } } },
    },
  },
];

/**
 * `/healthz`: the process is alive. `/readyz`: Redis answers. Readiness does not depend on workers,
 * or an outage of workers would take every API instance out of its load balancer; the live
 * worker count is in the body for people and dashboards.
 */
export function healthRoutes(deps: { probe: HealthProbe }) {
  return new Hono<AppEnv>()
    .get('/healthz', (c) => c.json({ status: 'ok' }))
    .get('/readyz', async (c) => {
      const redis = await deps.probe.redisAnswers();
      const workers = redis ? await deps.probe.liveWorkers().catch(() => 0) : 0;
      const body = { status: redis ? 'ready' : 'unavailable', redis: redis ? 'up' : 'down', workers };
      return redis ? c.json(body, 200) : c.json(body, 503, { 'Retry-After': UNAVAILABLE_RETRY_AFTER_SECONDS });
    });
}
