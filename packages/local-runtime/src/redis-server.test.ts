import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DataDirInUseError, startLocalRedis, type LocalRedis } from './redis-server.ts';

describe('local redis-server', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ces-local-redis-'));
  const started: LocalRedis[] = [];

  afterAll(async () => {
    await Promise.all(started.map((redis) => redis.close()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('refuses a data folder another redis-server uses, and takes it once that one has stopped', async () => {
    const first = await startLocalRedis({ dataDir, appendOnly: true });
    started.push(first);
    const second = startLocalRedis({ dataDir, appendOnly: true });
    await expect(second).rejects.toBeInstanceOf(DataDirInUseError);
    await expect(second).rejects.toThrow(`a redis-server (pid ${first.process.pid}) already uses ${dataDir}`);

    await first.close();
    const third = await startLocalRedis({ dataDir, appendOnly: true });
    started.push(third);
    expect(third.process.exitCode).toBeNull();
  });
});
