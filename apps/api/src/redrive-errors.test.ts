import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { failedRun } from './test-support/failed-runs.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// A redrive refused: what did not fail, what runs, a second one while the first has not ended.
const ENCODE = '/Library/Utilities/Encoding/Base64Encode';

describe('redrive refused', () => {
  let t: InProcessApp;

  beforeAll(async () => {
    t = await startInProcessApp({ redisUrl: inject('redisUrl') });
  });

  afterAll(async () => {
    await t?.close();
  });

  const redrive = (id: string, options: { body?: string; headers?: Record<string, string> } = {}) =>
    t.call('POST', `/choreo-executions/${id}/redrive`, t.credentials.alice, options);
  const message = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message;

  it('answers 409 for a run that succeeded or was terminated, and for one still running', async () => {
    for (const status of ['SUCCESS', 'TERMINATED_MANUALLY', 'RUNNING'] as const) {
      const id = await failedRun(t, { choreo: ENCODE, inputs: { Text: status }, status });
      const res = await redrive(id);
      expect(res.status).toBe(409);
      expect(await message(res)).toContain(status === 'RUNNING' ? 'is still RUNNING' : `ended ${status}`);
    }
  });

  it('answers 409 to a second redrive while the first has not ended, and starts nothing', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'twice' } });
    const first = ((await (await redrive(failed)).json()) as { id: string }).id;
    const second = await redrive(failed);
    expect(second.status).toBe(409);
    expect(await message(second)).toContain(first);
    expect(await t.executions.summary(failed, { withOutputs: false })).toMatchObject({ status: 'ERROR', redrivenBy: first });
  });

  it('lets one of two redrives sent at once start, and answers the other 409', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'race' } });
    const answers = await Promise.all([redrive(failed), redrive(failed), redrive(failed)]);
    expect(answers.map((res) => res.status).sort()).toEqual([202, 409, 409]);
  });

  it('answers 404 for an unknown id and for what is not an id', async () => {
    expect((await redrive('0'.repeat(32))).status).toBe(404);
    expect((await redrive('not-an-id')).status).toBe(404);
  });

  it('answers 400 for a body that does not parse, and 415 for one of another type', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'body' } });
    expect((await redrive(failed, { body: '{"inputs": [' })).status).toBe(400);
    expect((await redrive(failed, { body: 'Text=x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    expect((await redrive(failed, { headers: { 'idempotency-key': 'has space' } })).status).toBe(400);
    expect(await t.executions.summary(failed, { withOutputs: false })).not.toHaveProperty('redrivenBy');
  });

  it('answers 409 when the definition the run ran is no longer kept', async () => {
    const failed = await failedRun(t, { choreo: ENCODE, inputs: { Text: 'gone' } });
    const record = await t.executions.get(failed);
    await t.redis.hset(t.keys.execution(failed), 'def', `${record?.definitionDigest}-gone`);
    const res = await redrive(failed);
    expect(res.status).toBe(409);
    expect(await message(res)).toContain('no longer kept');
  });
});
