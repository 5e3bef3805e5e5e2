import { Agent, request } from 'node:https';

export interface HttpResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: a test reads the answer's fields and its assertions check them; typing each answer would restate the API in every test
  json<T = any>(): T;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Aborts the request after this long; the default waits as long as the test allows. */
  timeoutMs?: number;
}

/** A small HTTPS client that trusts the test certificate and keeps connections alive. */
export function createHttpsClient(baseUrl: string, ca: string) {
  const agent = new Agent({ keepAlive: true, ca, maxSockets: 64 });
  return {
    request(method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> {
      const url = new URL(path, baseUrl);
      return new Promise((resolve, reject) => {
        const req = request(
          url,
          { method, agent, headers: options.headers, servername: 'localhost', ...(options.timeoutMs ? { timeout: options.timeoutMs } : {}) },
          (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => {
              const text = Buffer.concat(chunks).toString('utf8');
              resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: () => JSON.parse(text) });
            });
            res.on('error', reject);
          },
        );
        req.on('error', reject);
        req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
        if (options.body !== undefined) req.write(options.body);
        req.end();
      });
    },
    close() {
      agent.destroy();
    },
  };
}

export type HttpsClient = ReturnType<typeof createHttpsClient>;
