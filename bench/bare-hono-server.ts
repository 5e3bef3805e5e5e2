// Baseline for reading an execution: bare Hono on @hono/node-server answering a constant JSON,
// over the same TLS setup as the API (node:https, the same certificate, the same keep-alive).
import { readFileSync } from 'node:fs';
import { createServer } from 'node:https';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const settings = JSON.parse(process.argv[2] ?? '{}') as { port: number; certFile: string; keyFile: string };

// The same shape and about the same size as a status answer, so that serialising it costs alike.
const body = {
  execution: {
    id: '0123456789abcdef0123456789abcdef',
    choreo: '/Library/Utilities/Encoding/Base64Encode',
    starttime: '1700000000000',
    endtime: '1700000000002',
    host: '10.0.0.1',
    status: 'SUCCESS',
  },
};

const app = new Hono();
app.get('*', (c) => c.json(body));

const server = serve(
  {
    fetch: app.fetch,
    port: settings.port,
    hostname: '127.0.0.1',
    createServer,
    serverOptions: { cert: readFileSync(settings.certFile, 'utf8'), key: readFileSync(settings.keyFile, 'utf8'), keepAliveTimeout: 65_000 },
  },
  () => process.stdout.write('bare hono listening\n'),
);

process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  if ('closeIdleConnections' in server) server.closeIdleConnections();
});
