import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { createPrefixRouter } from './prefix-router.ts';

function appWithBothSides() {
  const app = new Hono({ router: createPrefixRouter('/ops') });
  const seen: string[] = [];
  app.use(async (c, next) => {
    seen.push(`global ${c.req.path}`);
    await next();
  });
  const ops = new Hono();
  ops.use(async (_c, next) => {
    seen.push('ops middleware');
    await next();
  });
  // A pattern RegExpRouter refuses, as Bull Board's are: the ops side must fall back on its own.
  ops.get('/api/:queue/metrics', (c) => c.text(`metrics ${c.req.param('queue')}`));
  ops.get('/api/:queue/:job/logs', (c) => c.text(`logs ${c.req.param('queue')} ${c.req.param('job')}`));
  ops.get('/', (c) => c.text('ops home'));
  app.route('/ops', ops);
  app.get('/items/:id', (c) => c.text(`item ${c.req.param('id')}`));
  app.get('/opsroom', (c) => c.text('not ops'));
  return { app, seen };
}

describe('prefix router', () => {
  it('routes each side with its own patterns and runs global middleware first on both', async () => {
    const { app, seen } = appWithBothSides();
    expect(await (await app.request('/items/7')).text()).toBe('item 7');
    expect(await (await app.request('/ops/api/q1/metrics')).text()).toBe('metrics q1');
    expect(await (await app.request('/ops/api/q1/42/logs')).text()).toBe('logs q1 42');
    expect(seen).toEqual(['global /items/7', 'global /ops/api/q1/metrics', 'ops middleware', 'global /ops/api/q1/42/logs', 'ops middleware']);
  });

  it('keeps the fast router outside the prefix', async () => {
    const router = createPrefixRouter<string>('/ops');
    router.add('GET', '/ops/api/:queue/metrics', 'metrics');
    router.add('GET', '/ops/api/:queue/:job/logs', 'logs');
    router.add('GET', '/items/:id', 'item');
    const [handlers] = router.match('GET', '/items/7');
    expect(handlers.map(([handler]) => handler)).toEqual(['item']);
    // RegExpRouter's results carry a parameter stash; TrieRouter's do not.
    expect(router.match('GET', '/items/7')).toHaveLength(2);
    expect(router.match('GET', '/ops/api/q/1/logs')).toHaveLength(1);
  });

  it('sends the prefix itself inside, and a longer first segment outside', async () => {
    const { app } = appWithBothSides();
    expect(await (await app.request('/ops')).text()).toBe('ops home');
    expect(await (await app.request('/opsroom')).text()).toBe('not ops');
    expect((await app.request('/ops/unknown')).status).toBe(404);
  });

  it('refuses a route outside whose first segment would also match the prefix', () => {
    const router = createPrefixRouter<string>('/ops');
    expect(() => router.add('GET', '/:anything', 'x')).toThrow(/overlap \/ops/);
    expect(() => router.add('GET', '/*/deep', 'x')).toThrow(/overlap \/ops/);
  });
});
