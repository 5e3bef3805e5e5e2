import type { ExecutionRecord } from '@ces/store';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startInProcessApp, type InProcessApp } from './test-support/in-process-app.ts';

// Idempotency-Key on runs, in process against a real Redis and queue (no worker: runs stay queued
// until a test ends them). A client that retries a run it may have started gets that run back.
const ENCODE = '/choreos/Library/Utilities/Encoding/Base64Encode';
const encodeBody = (text: string) => JSON.stringify({ inputs: [{ name: 'Text', value: text }] });

describe('Idempotency-Key on runs', () => {
  let t: InProcessApp;
  /** Told each time the launcher reads a record, which is how a replay finds its execution. */
  let onRead: ((record: ExecutionRecord | undefined) => void) | undefined;

  beforeAll(async () => {
    t = await startInProcessApp({
      redisUrl: inject('redisUrl'),
      syncWaitMs: 10_000,
      wrap: {
        waits: (store) => ({
          ...store,
          async get(id) {
            const record = await store.get(id);
            onRead?.(record);
            return record;
          },
        }),
      },
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  const run = (key: string | undefined, options: { body?: string; mode?: 'async'; credential?: InProcessApp['credentials']['alice'] } = {}) =>
    t.call('POST', `${ENCODE}${options.mode ? '?mode=async' : ''}`, options.credential ?? t.credentials.alice, {
      body: options.body ?? encodeBody('x'),
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });

  const uniqueKey = () => `key-${crypto.randomUUID()}`;

  describe('happy', () => {
    it('answers a run given again with its key with the same execution, and starts nothing more', async () => {
      const key = uniqueKey();
      const before = await t.executions.countRunning('acme');
      const queuedBefore = await t.queue.count();
      const first = await run(key, { mode: 'async' });
      expect(first.status).toBe(202);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      const { id } = await first.json();

      const again = await run(key, { mode: 'async' });
      expect(again.status).toBe(202);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.headers.get('location')).toBe(`/service-api/1.0/choreo-executions/${id}`);
      const body = await again.json();
      expect(body.id).toBe(id);
      expect(body.execution).toMatchObject({ id, status: 'RUNNING' });
      expect(await t.executions.countRunning('acme')).toBe(before + 1);
      // The job sent along with the refused creation is gone again; the first one is queued.
      expect(await t.queue.count()).toBe(queuedBefore + 1);
      expect(await t.queue.getJob(id)).toBeDefined();
    });

    it('answers with the run as it is now: 200 with outputs to a synchronous retry once it has ended', async () => {
      const key = uniqueKey();
      const { id } = await (await run(key, { mode: 'async' })).json();
      await t.executions.end(id, { status: 'SUCCESS', outputs: { Base64EncodedText: 'eA==' } });

      const sync = await run(key);
      expect(sync.status).toBe(200);
      expect(sync.headers.get('idempotent-replayed')).toBe('true');
      expect(await sync.json()).toMatchObject({ execution: { id, status: 'SUCCESS' }, output: { Base64EncodedText: 'eA==' } });

      const async = await run(key, { mode: 'async' });
      expect(async.status).toBe(202);
      expect((await async.json()).execution).toMatchObject({ id, status: 'SUCCESS' });
    });

    it('waits for a running execution when the retry is synchronous, as for a new run', async () => {
      const key = uniqueKey();
      const { id } = await (await run(key, { mode: 'async' })).json();
      const replayRead = new Promise<void>((resolve) => {
        onRead = (record) => {
          if (record?.id === id) resolve();
        };
      });
      const waiting = run(key);
      await replayRead;
      onRead = undefined;
      await t.executions.end(id, { status: 'SUCCESS', outputs: { Base64EncodedText: 'eA==' } });
      const answer = await waiting;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ execution: { id, status: 'SUCCESS' }, output: { Base64EncodedText: 'eA==' } });
    });

    it('accepts any visible ASCII key up to 255 characters', async () => {
      for (const key of ['a', '~'.repeat(255), `${crypto.randomUUID()}:"x"/{y}`]) {
        const first = await run(`${key}`, { mode: 'async' });
        expect(first.status, key).toBe(202);
        const { id } = await first.json();
        expect((await (await run(key, { mode: 'async' })).json()).id).toBe(id);
        await t.call('DELETE', `/choreo-executions/${id}`, t.credentials.alice);
      }
    });
  });

  describe('error', () => {
    it('refuses the key with another run (Choreo, inputs or options) with 409, and records nothing', async () => {
      const key = uniqueKey();
      expect((await run(key, { mode: 'async' })).status).toBe(202);
      const before = await t.executions.countRunning('acme');
      for (const other of [
        () => run(key, { mode: 'async', body: encodeBody('y') }),
        () => t.call('POST', `${ENCODE}?mode=async&store_results=true`, t.credentials.alice, { body: encodeBody('x'), headers: { 'idempotency-key': key } }),
        () =>
          t.call('POST', '/choreos/Library/Utilities/Development/Countdown?mode=async', t.credentials.alice, { body: '', headers: { 'idempotency-key': key } }),
      ]) {
        const res = await other();
        expect(res.status).toBe(409);
        const { error } = await res.json();
        expect(error.code).toBe('CONFLICT');
        expect(error.message).toContain('Idempotency-Key');
      }
      expect(await t.executions.countRunning('acme')).toBe(before);
    });

    it('refuses a key that is too long, has spaces or is not ASCII, with 400', async () => {
      for (const key of ['k'.repeat(256), 'a b', 'caf\u00e9', '\t']) {
        const res = await run(key, { mode: 'async' });
        expect(res.status, JSON.stringify(key)).toBe(400);
        expect((await res.json()).error.message).toContain('Idempotency-Key');
      }
    });

    it('answers 409 when the execution the key started is no longer kept', async () => {
      const key = uniqueKey();
      const { id } = await (await run(key, { mode: 'async' })).json();
      await t.redis.del(t.keys.execution(id));
      const res = await run(key, { mode: 'async' });
      expect(res.status).toBe(409);
      expect((await res.json()).error.message).toMatch(/no longer kept/);
    });
  });

  describe('security', () => {
    it("keeps each account's keys to itself", async () => {
      const key = uniqueKey();
      const mine = (await (await run(key, { mode: 'async' })).json()).id;
      const theirs = await run(key, { mode: 'async', credential: t.credentials.bob });
      expect(theirs.status).toBe(202);
      expect(theirs.headers.get('idempotent-replayed')).toBeNull();
      expect((await theirs.json()).id).not.toBe(mine);
    });

    it('never answers a replay of a Choreo the credential may not see', async () => {
      const key = uniqueKey();
      const res = await t.call('POST', '/choreos/Library/Utilities/Development/Countdown?mode=async', t.credentials.alice, {
        body: '',
        headers: { 'idempotency-key': key },
      });
      expect(res.status).toBe(202);
      // encodingApp is limited to the Encoding Choreos: the same key on Countdown is 404 before any replay.
      const hidden = await t.call('POST', '/choreos/Library/Utilities/Development/Countdown?mode=async', t.credentials.encodingApp, {
        body: '',
        headers: { 'idempotency-key': key },
      });
      expect(hidden.status).toBe(404);
    });
  });
});
