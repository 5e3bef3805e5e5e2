import type { ExecutionStore } from '@ces/store';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createOutputReadGate } from './output-read-gate.ts';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Outputs may be 16 Mi characters each: a burst of reads of them from one account is served a few
// at a time, so that it cannot hold the API's memory, while status polls go on unqueued.
describe('reads of outputs', () => {
  let t: InProcessApp;
  let inFlight = 0;
  let most = 0;
  let outputReads = 0;

  beforeAll(async () => {
    t = await startInProcessApp({
      redisUrl: inject('redisUrl'),
      wrap: {
        outputReads: (store): ExecutionStore => ({
          ...store,
          async summary(id, options) {
            outputReads += 1;
            inFlight += 1;
            most = Math.max(most, inFlight);
            try {
              return await store.summary(id, options);
            } finally {
              inFlight -= 1;
            }
          },
        }),
      },
      outputReadGate: createOutputReadGate({ perProcess: 4, perAccount: 2, maxWaitMs: 60_000 }),
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('serves a burst of them a few at a time, every one in full; status polls do not wait for them', async () => {
    const run = await t.call('POST', '/choreos/Library/Utilities/Encoding/Base64Encode?mode=async', t.credentials.alice, {
      body: JSON.stringify({ inputs: [{ name: 'Text', value: 'x' }] }),
    });
    const { id } = await run.json();
    const output = 'y'.repeat(2 * 1024 * 1024);
    await t.executions.end(id, { status: 'SUCCESS', outputs: { Base64EncodedText: output } });

    const reads = await Promise.all(Array.from({ length: 12 }, () => t.call('GET', `/choreo-executions/${id}?view=outputs`, t.credentials.alice)));
    for (const read of reads) {
      expect(read.status).toBe(200);
      expect((await read.json()).output.Base64EncodedText).toHaveLength(output.length);
    }
    expect(outputReads).toBe(12);
    expect(most).toBe(2);

    const status = await t.call('GET', `/choreo-executions/${id}`, t.credentials.alice);
    expect((await status.json()).execution.status).toBe('SUCCESS');
    expect(outputReads).toBe(12);
  });
});
