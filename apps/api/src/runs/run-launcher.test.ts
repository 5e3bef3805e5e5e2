import { loadCatalogue } from '@ces/choreos';
import {
  createDefinitionStore,
  createExecutionEvents,
  createExecutionQueue,
  createExecutionStore,
  createKeySpace,
  createRedisConnection,
  waitUntilReady,
  type ExecutionStore,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { CATALOGUE_DIR } from '../test-support/in-process-app.ts';
import { createRunLauncher } from './run-launcher.ts';

// Once a run is recorded and queued it will run: whatever fails after that, its caller must get
// its id, never an error it would retry into a second run.
describe('run launcher', () => {
  const keys = createKeySpace(isolatedPrefix('launcher'));
  const redis = createRedisConnection(inject('redisUrl'), 'queue', 'launcher-test');
  const subscriber = createRedisConnection(inject('redisUrl'), 'subscriber', 'launcher-test-events');
  const queue = createExecutionQueue({ connection: redis, keys });
  let events: Awaited<ReturnType<typeof createExecutionEvents>>;

  beforeAll(async () => {
    await Promise.all([waitUntilReady(redis), waitUntilReady(subscriber)]);
    events = await createExecutionEvents({ subscriber, keys, pollMs: 50 });
  });

  afterAll(async () => {
    await events.close();
    await queue.close();
    await deleteKeysWithPrefix(redis, keys.prefix);
    redis.disconnect();
    subscriber.disconnect();
  });

  it('answers a synchronous run as accepted when its record cannot be read after the wait', async () => {
    const store = createExecutionStore({ redis, keys, retentionSeconds: 300 });
    // The store as Redis going away right after the run was recorded would leave it.
    const failingReads: ExecutionStore = { ...store, get: () => Promise.reject(new Error('Connection is closed.')), summary: () => Promise.reject(new Error('Connection is closed.')) };
    const launcher = createRunLauncher({
      executions: failingReads,
      definitions: createDefinitionStore({ redis, keys }),
      queue,
      events,
      config: { syncWaitMs: 100, maxRunningPerAccount: 0, maxStoredBytesPerAccount: 0, defaultTimeLimitSeconds: 900, quotaRetryAfterSeconds: 5 },
    });
    const catalogue = await loadCatalogue(CATALOGUE_DIR);
    const entry = catalogue.get('/Library/Utilities/Encoding/Base64Encode')!;
    const principal = { kind: 'app' as const, account: 'acme', name: 'app', choreos: ['/**'] };
    const result = await launcher.launch(principal, entry, { inputs: { Text: 'x' }, outputFilters: [] }, { wait: true, sourceId: '', storeResults: false });
    expect(result).toMatchObject({ ended: false, record: { status: 'RUNNING', account: 'acme' } });
    // Recorded and queued: it will run.
    expect((await store.get(result.record.id))?.status).toBe('RUNNING');
    expect(await queue.getJobState(result.record.id)).toBe('waiting');
  });
});
