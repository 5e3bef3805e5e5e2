import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local HTTP server for the HTTP and RSS Choreos' cases (test/cases/): fixed pages at the paths of
 * `ECHO_SERVER_PAGES`, and at any other path a JSON echo of the request it received:
 * `{ method, path, auth, contentType, custom, body, bytes }` (`path` with its query, `custom` the
 * X-Custom header, `body` as UTF-8 and `bytes` in hex). Answers carry `x-test: yes`.
 */
export const ECHO_SERVER_PAGES: Readonly<Record<string, { status: number; contentType: string; body: string }>> = {
  '/feed.rss': {
    status: 200,
    contentType: 'application/rss+xml; charset=utf-8',
    body: '<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>Café news</title><item><title>First</title><link>https://example.com/1</link></item><item><title>Second &amp; last</title><link>https://example.com/2</link></item></channel></rss>',
  },
  '/page.html': { status: 200, contentType: 'text/html', body: '<!DOCTYPE html><html><body>not a feed</body></html>' },
  '/gone.rss': { status: 404, contentType: 'text/plain', body: 'no such feed' },
};

export interface EchoServer {
  readonly url: string;
  close(): Promise<void>;
}

export async function startEchoServer(): Promise<EchoServer> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      response.setHeader('x-test', 'yes');
      const page = ECHO_SERVER_PAGES[request.url ?? ''];
      if (page !== undefined) {
        response.writeHead(page.status, { 'content-type': page.contentType });
        response.end(page.body);
        return;
      }
      const body = Buffer.concat(chunks);
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          method: request.method,
          path: request.url,
          auth: request.headers.authorization ?? null,
          contentType: request.headers['content-type'] ?? null,
          custom: request.headers['x-custom'] ?? null,
          body: body.toString('utf8'),
          bytes: body.toString('hex'),
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
