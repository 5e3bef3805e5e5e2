import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from '../test-support/in-process-app.ts';

// Once a run is recorded and queued it will run: whatever fails after that, its caller must get
// its id, never an error it would retry into a second run.
describe('run launcher', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    const lost = () => Promise.reject(new Error('Connection is closed.'));
    // Redis gone right after the run was recorded: every read of it fails.
    t = await startInProcessApp({ redisUrl: inject('redisUrl'), syncWaitMs: 100, wrap: { waits: (store) => ({ ...store, get: lost, summary: lost }) } });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('answers a synchronous run 202 with its id when its record cannot be read after the wait', async () => {
    const res = await t.call('POST', '/choreos/Library/Utilities/Encoding/Base64Encode', t.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
    });
    expect(res.status).toBe(202);
    const { id } = (await res.json()) as { id: string };
    expect(res.headers.get('location')).toContain(`/choreo-executions/${id}`);
    // Recorded and queued: it will run.
    expect((await t.executions.get(id))?.status).toBe('RUNNING');
    expect(await t.queue.getJobState(id)).toBe('waiting');
  });
});
