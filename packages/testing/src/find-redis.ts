import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRedisServerOnPath, startLocalRedis } from '@ces/local-runtime';

export interface TestRedis {
  url: string;
  /** Where it came from, for the test log. */
  source: 'REDIS_URL' | 'testcontainers' | 'redis-server';
  /** A local server's data folder, so that tests can restart it with its AOF. */
  dataDir?: string;
  stop(): Promise<void>;
}

export const NO_REDIS_MESSAGE =
  'The tests need a real Redis and none was found. Any one of these works:\n' +
  '  - set REDIS_URL to a Redis you may write to (tests use their own key prefixes);\n' +
  '  - start a Docker engine (testcontainers then runs redis:7);\n' +
  '  - install redis-server (Debian/Ubuntu: `apt-get install redis-server`, macOS: `brew install redis`).';

/**
 * Finds a Redis for the test suite, in this order: REDIS_URL; testcontainers when a Docker engine
 * answers; a `redis-server` from PATH on a free port in a temporary folder.
 */
export async function findTestRedis(env: Record<string, string | undefined>): Promise<TestRedis> {
  if (env.REDIS_URL) {
    return { url: env.REDIS_URL, source: 'REDIS_URL', stop: async () => {} };
  }
  const container = await tryTestcontainers();
  if (container) return container;
  if (isRedisServerOnPath()) {
    const dataDir = mkdtempSync(join(tmpdir(), 'ces-test-redis-'));
    const server = await startLocalRedis({ dataDir, appendOnly: true });
    return {
      url: server.url,
      source: 'redis-server',
      dataDir,
      async stop() {
        await server.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  throw new Error(NO_REDIS_MESSAGE);
}

async function tryTestcontainers(): Promise<TestRedis | undefined> {
  // Checking for an engine first keeps the common no-Docker case fast and quiet.
  const { getContainerRuntimeClient } = await import('testcontainers');
  try {
    await getContainerRuntimeClient();
  } catch {
    return undefined;
  }
  const { RedisContainer } = await import('@testcontainers/redis');
  const container = await new RedisContainer('redis:7-alpine').start();
  return {
    url: container.getConnectionUrl(),
    source: 'testcontainers',
    stop: async () => {
      await container.stop();
    },
  };
}
