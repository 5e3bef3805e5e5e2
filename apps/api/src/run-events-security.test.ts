import { newExecutionFixture } from '@ces/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openEventStream } from './test-support/event-stream.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// A run's events are seen by exactly those who see its status: its account's credentials that
// may access its Choreo. Anyone else is told there is no such execution (404), never that it is
// someone else's.
const ENCODING = '/Library/Utilities/Encoding/Base64Encode';
const OTHER = '/Library/Utilities/JSON/GetValuesFromJSON';

describe('run events access', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  const endedRun = async (choreo: string) => {
    const execution = newExecutionFixture({ account: 'acme', choreo });
    await t.executions.accept(execution, { maxRunningPerAccount: 0 });
    await t.executions.end(execution.id, { status: 'SUCCESS' });
    return execution.id;
  };

  it("refuses another account's run as unknown (404), running or ended", async () => {
    const running = newExecutionFixture({ account: 'acme', choreo: ENCODING });
    await t.executions.accept(running, { maxRunningPerAccount: 0 });
    const ended = await endedRun(ENCODING);
    for (const id of [running.id, ended]) {
      const res = await t.call('GET', `/choreo-executions/${id}/events`, t.credentials.bob, { accept: 'text/event-stream' });
      expect(res.status).toBe(404);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('NOT_FOUND');
    }
    expect(t.runEvents.size()).toBe(0);
  });

  it('refuses an application the run of a Choreo it may not access, and serves the one it may', async () => {
    const hidden = await endedRun(OTHER);
    const refused = await t.call('GET', `/choreo-executions/${hidden}/events`, t.credentials.encodingApp, { accept: 'text/event-stream' });
    expect(refused.status).toBe(404);
    const shown = await endedRun(ENCODING);
    const stream = await openEventStream(t, shown, t.credentials.encodingApp);
    expect(stream.status).toBe(200);
    expect((await stream.waitUntilClosed()).map((frame) => frame.event)).toEqual(['execution.ended']);
  });
});
