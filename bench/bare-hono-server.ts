// Baseline for reading an execution: bare Hono on @hono/node-server answering a constant JSON,
// over the same TLS setup as the API (node:https, the same certificate, the same keep-alive).
import { Hono } from 'hono';
import { serveLikeTheApi } from './api-like-https-server.ts';

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

serveLikeTheApi({ fetch: app.fetch, port: settings.port, certFile: settings.certFile, keyFile: settings.keyFile, readyLine: 'bare hono listening' });
