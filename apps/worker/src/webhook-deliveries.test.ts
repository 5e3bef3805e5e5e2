import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@ces/observability';
import { createHttpPoster } from '@ces/steps';
import {
  createExecutionStore,
  createKeySpace,
  createSecretCipher,
  createWebhookDeliveries,
  createWebhookQueue,
  createWebhookStore,
  SEALED_OUTPUTS,
  webhookDeliveryId,
  type NewDelivery,
  type WebhookSpec,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, must, newExecutionFixture, waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { webhookBody } from './webhook-body.ts';
import { createWebhookDispatcher } from './webhook-dispatcher.ts';
import { createWebhookSender, type WebhookSender } from './webhook-sender.ts';
import { startWebhookWorker, type WebhookWorker } from './webhook-worker.ts';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

// Real Redis, BullMQ and HTTP: the store's outbox, a dispatcher, a delivery worker and a receiver
// whose answers each test sets.
describe('webhook deliveries', () => {
  const prefix = isolatedPrefix('webhooks');
  const keys = createKeySpace(prefix);
  const logger = createLogger({ name: 'webhook-test', level: 'silent' });
  const cipher = createSecretCipher({ current: randomBytes(32) });
  let redis: Redis;
  let server: Server;
  let url = '';
  let received: Received[] = [];
  let answers: number[] = [];
  /** Requests to `/slow`, held unanswered until a test lets them go. */
  const held: { release: () => void }[] = [];
  let holding = true;
  /** The outcomes the sender told its metrics, in order. */
  let outcomes: string[] = [];
  let worker: WebhookWorker;
  let account = '';
  const executions = () => createExecutionStore({ redis, keys, retentionSeconds: 300 });
  const webhooks = () => createWebhookStore({ redis, keys, cipher, maxWebhooksPerAccount: 0 });
  const deliveries = () => createWebhookDeliveries({ redis, keys, retentionSeconds: 300 });
  let queue: ReturnType<typeof createWebhookQueue>;

  let sender: WebhookSender;
  const dispatcher = () =>
    createWebhookDispatcher({
      webhooks: webhooks(),
      deliveries: deliveries(),
      sender,
      queue,
      logger,
      leaseMs: 1_000,
      pollMs: 20,
      batch: 100,
    });

  async function run(status: 'SUCCESS' | 'ERROR', outputs: Record<string, string> = {}, choreo = '/Test/Quick') {
    const execution = newExecutionFixture({ account, choreo });
    const store = executions();
    expect((await store.accept(execution, { maxRunningPerAccount: 0 })).outcome).toBe('accepted');
    await store.end(execution.id, { status, outputs, account, ...(status === 'ERROR' ? { error: 'it broke' } : {}) });
    return execution.id;
  }

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    queue = createWebhookQueue({ connection: redis, keys });
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.url === '/slow' && holding) {
          held.push({ release: () => response.end() });
          return;
        }
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.statusCode = answers.shift() ?? 204;
        response.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    sender = createWebhookSender({
      webhooks: webhooks(),
      deliveries: deliveries(),
      post: createHttpPoster({ allowPrivateNetworks: true, timeoutMs: 15_000, maxResponseBytes: 65_536 }),
      retry: { initialMs: 50, maxSeconds: 5 },
      perWebhook: 4,
      logger,
      onAttempt: (outcome) => outcomes.push(outcome),
    });
    worker = startWebhookWorker({
      connection: redis,
      keys,
      concurrency: 8,
      lockDurationMs: 5_000,
      stalledIntervalMs: 5_000,
      sender,
      deliveries: deliveries(),
      logger,
    });
    await worker.started();
  });

  beforeEach(() => {
    account = `acct-${randomBytes(4).toString('hex')}`;
    received = [];
    answers = [];
    outcomes = [];
  });

  afterAll(async () => {
    await worker.close();
    await queue.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });

  const subscribe = async (name: string, spec: Partial<WebhookSpec> = {}) => {
    const put = await webhooks().put(account, name, { url, events: ['execution.ended'], ...spec }, ['/**']);
    if (put.outcome !== 'created') throw new Error(`not created: ${put.outcome}`);
    return put.secret;
  };

  it('an account without subscriptions puts nothing in the outbox; one with a subscription puts each end there once', async () => {
    const before = await deliveries().countEvents();
    await run('SUCCESS');
    expect(await deliveries().countEvents()).toBe(before);
    await subscribe('ends');
    const id = await run('SUCCESS');
    expect(await redis.zscore(keys.webhookOutbox(), `end\n${account}\n${id}`)).not.toBeNull();
    // A start is queued only for an account whose subscriptions list it.
    expect(await redis.zscore(keys.webhookOutbox(), `start\n${account}\n${id}`)).toBeNull();
    // Not delivered here: the next tests' receiver counts only their own.
    await redis.del(keys.webhookOutbox());
  });

  it('a run terminated while it waits for a worker is queued for its webhooks as its end, like any other end', async () => {
    await subscribe('terminations');
    const execution = newExecutionFixture({ account });
    await executions().accept(execution, { maxRunningPerAccount: 0 });
    expect((await executions().requestTermination(execution.id))?.ended).toBe(true);
    expect((await executions().get(execution.id))?.status).toBe('TERMINATED_MANUALLY');
    expect(await redis.zscore(keys.webhookOutbox(), `end\n${account}\n${execution.id}`)).not.toBeNull();
    await redis.del(keys.webhookOutbox());
  });

  it('delivers an end signed as Standard Webhooks verify it, without the secret outputs, once however often it is dispatched', async () => {
    const secret = await subscribe('signed');
    const id = await run('SUCCESS', { Result: 'ok', [SEALED_OUTPUTS]: 'sealed-bytes' });
    await dispatcher().dispatch();
    // A second dispatcher over the same event, as after a crash between its delivery and its
    // settling: it is in the outbox under the lease the dead dispatcher took (any score but the
    // run's end time, whichever version of the dispatcher leased it).
    await redis.zadd(keys.webhookOutbox(), 0, `end\n${account}\n${id}`);
    await dispatcher().dispatch();
    const deliveryId = webhookDeliveryId(account, 'signed', id, 'end');
    await waitFor(async () => (await deliveries().get(deliveryId))?.state === 'delivered', { what: 'the delivery' });
    await dispatcher().dispatch();
    expect(received).toHaveLength(1);
    const [only] = received;
    const headers = only?.headers as Record<string, string>;
    expect(headers['content-type']).toBe('application/json');
    expect(headers['webhook-id']).toBe(deliveryId);
    const payload = new Webhook(secret).verify(only?.body ?? '', headers) as { type: string; timestamp: string; data: Record<string, unknown> };
    expect(payload.type).toBe('execution.ended');
    expect(payload.data).toEqual({
      execution: expect.objectContaining({ id, status: 'SUCCESS', choreo: '/Test/Quick' }),
      output: { Result: 'ok' },
    });
    expect(Number.isNaN(Date.parse(payload.timestamp))).toBe(false);
    expect(await deliveries().countEvents()).toBe(0);
  });

  it('a failed run of a subscription to both ended and failed is delivered once, as execution.failed; choreos filter the runs', async () => {
    await subscribe('both', { events: ['execution.ended', 'execution.failed'], choreos: ['/Test/**'] });
    await run('ERROR', {}, '/Other/Thing');
    const id = await run('ERROR');
    await dispatcher().dispatch();
    await waitFor(() => received.length === 1, { what: 'one delivery' });
    expect(JSON.parse(received[0]?.body ?? '{}')).toMatchObject({
      type: 'execution.failed',
      data: { execution: { id, status: 'ERROR', lasterror: 'it broke' } },
    });
    const recent = await deliveries().recent(account, 'both', 10);
    expect(recent.map((delivery) => delivery.executionId)).toEqual([id]);
  });

  it('delivers a start to a subscription that lists execution.started, apart from the end', async () => {
    await subscribe('starts', { events: ['execution.started', 'execution.ended'] });
    const id = await run('SUCCESS');
    await dispatcher().dispatch();
    await waitFor(() => received.length === 2, { what: 'the start and the end' });
    const types = received.map((request) => JSON.parse(request.body).type as string).sort();
    expect(types).toEqual(['execution.ended', 'execution.started']);
    expect(new Set(received.map((request) => request.headers['webhook-id']))).toEqual(
      new Set([webhookDeliveryId(account, 'starts', id, 'start'), webhookDeliveryId(account, 'starts', id, 'end')]),
    );
  });

  it('retries with backoff until a 2xx, keeping the webhook-id, and records each attempt', async () => {
    await subscribe('flaky');
    answers = [500, 503, 500];
    const id = await run('SUCCESS');
    await dispatcher().dispatch();
    const deliveryId = webhookDeliveryId(account, 'flaky', id, 'end');
    const delivered = await waitFor(
      async () => {
        const delivery = await deliveries().get(deliveryId);
        // The metrics hear of an attempt once its record is written: wait for both.
        return delivery?.state === 'delivered' && outcomes.length === 4 && delivery;
      },
      { what: 'the delivery after three failures' },
    );
    expect(delivered).toMatchObject({ attempts: 4, lastStatus: 204 });
    expect(outcomes).toEqual(['retry', 'retry', 'retry', 'delivered']);
    expect(received.map((request) => request.headers['webhook-id'])).toEqual([deliveryId, deliveryId, deliveryId, deliveryId]);
  });

  it('a 410 disables the subscription and ends the delivery; a redelivery sends it again with the same id', async () => {
    await subscribe('gone');
    answers = [410];
    const id = await run('SUCCESS');
    await dispatcher().dispatch();
    const deliveryId = webhookDeliveryId(account, 'gone', id, 'end');
    await waitFor(async () => (await deliveries().get(deliveryId))?.state === 'dead', { what: 'the delivery to end dead' });
    expect((await webhooks().get(account, 'gone'))?.disabled).toMatchObject({ reason: expect.stringContaining('410') });
    // Written again, it is enabled; its delivery is sent again when asked.
    await webhooks().put(account, 'gone', { url, events: ['execution.ended'] }, ['/**']);
    const round = await deliveries().redeliver(deliveryId, Date.now());
    await queue.add('deliver', { deliveryId, round }, { jobId: `${deliveryId}-r${round}` });
    await waitFor(async () => (await deliveries().get(deliveryId))?.state === 'delivered', { what: 'the redelivery' });
    expect(received.map((request) => request.headers['webhook-id'])).toEqual([deliveryId, deliveryId]);
  });

  it('signs with both secrets while a rotation overlaps', async () => {
    const first = await subscribe('rotated');
    const second = await webhooks().rotateSecret(account, 'rotated');
    expect(second).toMatch(/^whsec_/);
    expect((await webhooks().get(account, 'rotated'))?.previousSecretUntil).toBeGreaterThan(Date.now());
    await run('SUCCESS');
    await dispatcher().dispatch();
    await waitFor(() => received.length === 1, { what: 'the delivery' });
    const headers = received[0]?.headers as Record<string, string>;
    expect(headers['webhook-signature']?.split(' ')).toHaveLength(2);
    for (const secret of [first, second as string]) expect(() => new Webhook(secret).verify(received[0]?.body ?? '', headers)).not.toThrow();
  });

  it('a run that names its own call-back gets its end there, signed with the notify secret', async () => {
    const secret = await webhooks().createNotifySecret(account);
    expect(await webhooks().createNotifySecret(account)).toBeUndefined();
    const execution = newExecutionFixture({ account });
    const store = executions();
    await store.accept(execution, { maxRunningPerAccount: 0, notifyUrl: url });
    await store.end(execution.id, { status: 'SUCCESS', outputs: {}, account });
    await dispatcher().dispatch();
    await waitFor(() => received.length === 1, { what: 'the notify delivery' });
    const headers = received[0]?.headers as Record<string, string>;
    expect(new Webhook(secret as string).verify(received[0]?.body ?? '', headers)).toMatchObject({ type: 'execution.ended' });
  });

  it("a slow endpoint holds few of the worker's slots: another webhook's deliveries go on meanwhile", async () => {
    await subscribe('slow', { url: url.replace('/hook', '/slow') });
    await subscribe('quick');
    for (let index = 0; index < 12; index += 1) await run('SUCCESS');
    // As a worker dispatches: events are claimed as others settle, the first attempts sent at once.
    const loop = dispatcher();
    loop.start();
    // At most four requests of one webhook at once, here and in the queue's worker: the twelve quick
    // ones pass the held ones.
    await waitFor(() => received.length === 12, { what: "the quick webhook's deliveries" });
    expect(held.length).toBeLessThanOrEqual(4);
    // Let go: what is left of the slow webhook's deliveries is answered at once.
    holding = false;
    for (const request of held.splice(0)) request.release();
    await loop.stop();
    expect(await webhooks().delete(account, 'slow')).toBe(true);
  });

  it("first attempts past a quick webhook's most requests in flight wait for one to end, and cost no job", async () => {
    await subscribe('busy');
    const ids: string[] = [];
    for (let index = 0; index < 12; index += 1) ids.push(await run('SUCCESS'));
    // Twelve at once to a webhook of at most four in flight: each waits for an earlier one's answer.
    expect(await dispatcher().dispatch()).toBe(12);
    expect(received).toHaveLength(12);
    for (const id of ids) expect(await queue.getJob(webhookDeliveryId(account, 'busy', id, 'end'))).toBeUndefined();
  });

  it('a delivery the egress policy refuses ends dead at once: no retry could deliver it', async () => {
    await subscribe('inside');
    const id = await run('SUCCESS');
    const deliveryId = webhookDeliveryId(account, 'inside', id, 'end');
    // A worker that may not reach private networks, as by default.
    const guarded = createWebhookSender({
      webhooks: webhooks(),
      deliveries: deliveries(),
      post: createHttpPoster({ allowPrivateNetworks: false, timeoutMs: 15_000, maxResponseBytes: 65_536 }),
      retry: { initialMs: 50, maxSeconds: 5 },
      perWebhook: 4,
      logger,
    });
    await createWebhookDispatcher({
      webhooks: webhooks(),
      deliveries: deliveries(),
      queue,
      sender: guarded,
      logger,
      leaseMs: 1_000,
      pollMs: 20,
      batch: 100,
    }).dispatch();
    expect(await deliveries().get(deliveryId)).toMatchObject({ state: 'dead', attempts: 1, lastError: expect.stringContaining('not allowed') });
    expect(received).toHaveLength(0);
  });

  it('a delivery whose job fails for good ends dead, not pending with nothing to send it', async () => {
    await subscribe('unlucky');
    const id = await run('SUCCESS');
    const deliveryId = webhookDeliveryId(account, 'unlucky', id, 'end');
    await deliveries().open({ id: deliveryId, account, webhook: 'unlucky', executionId: id, type: 'execution.ended', url, body: '{}' }, Date.now());
    // Its job alone sends it: the run's event, which a dispatcher would send, is not left for the next tests' dispatchers.
    await redis.zrem(keys.webhookOutbox(), `end\n${account}\n${id}`);
    // Its own queue and worker, whose sender fails as one does when Redis keeps failing it.
    const own = createKeySpace(`${prefix}-failing`);
    const failing = startWebhookWorker({
      connection: redis,
      keys: own,
      concurrency: 1,
      lockDurationMs: 5_000,
      stalledIntervalMs: 5_000,
      sender: {
        send: () => Promise.reject(new Error('Redis is gone')),
        sendOpened: () => Promise.reject(new Error('Redis is gone')),
        sendFirst: () => Promise.reject(new Error('Redis is gone')),
      },
      deliveries: deliveries(),
      logger,
    });
    await failing.started();
    const ownQueue = createWebhookQueue({ connection: redis, keys: own });
    await ownQueue.add('deliver', { deliveryId, round: 0 }, { jobId: deliveryId, attempts: 1 });
    const dead = await waitFor(
      async () => {
        const delivery = await deliveries().get(deliveryId);
        return delivery?.state === 'dead' && delivery;
      },
      { what: 'the delivery to end dead' },
    );
    expect(dead.lastError).toBe('not sent: Redis is gone');
    await failing.close();
    await ownQueue.close();
    await deleteKeysWithPrefix(redis, own.prefix);
  });

  it('a delivery whose subscription was deleted ends dead, and the counts leave the runs out of the outbox', async () => {
    await subscribe('short-lived');
    answers = [500];
    const id = await run('SUCCESS');
    await dispatcher().dispatch();
    const deliveryId = webhookDeliveryId(account, 'short-lived', id, 'end');
    await waitFor(async () => (await deliveries().get(deliveryId))?.attempts === 1, { what: 'the first attempt' });
    expect(await webhooks().delete(account, 'short-lived')).toBe(true);
    await waitFor(async () => (await deliveries().get(deliveryId))?.state === 'dead', { what: 'the delivery to end dead' });
    // No event type is counted any more: only the counts' version, which shards' copies follow.
    expect(Object.keys(await redis.hgetall(keys.accountWebhookEvents(account)))).toEqual(['~version']);
    const after = await run('SUCCESS');
    expect(await redis.zscore(keys.webhookOutbox(), `end\n${account}\n${after}`)).toBeNull();
  });
  it('deliveries opened in one turn and attempts recorded in one turn each stand alone in their shared call', async () => {
    const store = deliveries();
    const ids = [await run('SUCCESS'), await run('SUCCESS'), await run('SUCCESS')];
    const opening = ids.map((executionId) => ({
      id: webhookDeliveryId(account, 'together', executionId, 'end'),
      account,
      webhook: 'together',
      executionId,
      type: 'execution.ended' as const,
      url,
      body: `{"run":"${executionId}"}`,
    }));
    const [first, second, third] = opening.map((delivery) => delivery.id);
    expect(await store.open(must(opening[1]), 1_000)).toBe(true);
    // The second exists: it is left as it was, and the others are opened beside it.
    expect(await Promise.all(opening.map((delivery) => store.open(delivery, 2_000)))).toEqual([true, false, true]);
    expect(await store.get(must(second))).toMatchObject({ created: 1_000, state: 'pending', round: 0, attempts: 0, nextAttempt: 1_000 });
    expect(await store.get(must(first))).toMatchObject({ created: 2_000, since: 2_000, state: 'pending', body: `{"run":"${ids[0]}"}`, nextAttempt: 2_000 });
    expect((await store.recent(account, 'together', 10)).map((delivery) => delivery.id).sort()).toEqual([first, second, third].sort());
    const recorded = await Promise.all([
      store.recordAttempt({ id: must(first), account }, { round: 0, now: 3_000, status: 204, error: '', outcome: 'delivered' }),
      store.recordAttempt({ id: must(second), account }, { round: 1, now: 3_000, status: 204, error: '', outcome: 'delivered' }),
      store.recordAttempt(
        { id: must(third), account },
        { round: 0, now: 3_000, status: 503, error: 'the endpoint answered 503', outcome: 'retry', nextAttempt: 9_000 },
      ),
      store.recordAttempt({ id: must(first), account }, { round: 0, now: 3_001, status: 500, error: 'late', outcome: 'retry', nextAttempt: 9_000 }),
    ]);
    // A delivered delivery is final even to an attempt recorded in the same call; another round's records nothing.
    expect(recorded).toEqual([true, false, true, false]);
    expect(await store.get(must(first))).toMatchObject({ state: 'delivered', attempts: 1, lastStatus: 204, deliveredAt: 3_000 });
    expect((await store.get(must(first)))?.nextAttempt).toBeUndefined();
    expect(await store.get(must(second))).toMatchObject({ state: 'pending', attempts: 0 });
    expect(await store.get(must(third))).toMatchObject({ state: 'pending', attempts: 1, lastStatus: 503, nextAttempt: 9_000 });
  });
  it('a delivery opened with its first attempt is written final or pending by it, once; a 410 disables its subscription', async () => {
    await subscribe('first');
    const store = createWebhookDeliveries({ redis, keys, retentionSeconds: 300, recentPerWebhook: 3 });
    const opening = (name: string) => ({
      id: webhookDeliveryId(account, 'first', name, 'end'),
      account,
      webhook: 'first',
      executionId: name,
      type: 'execution.ended' as const,
      url,
      body: `{"run":"${name}"}`,
    });
    const [delivered, retried, gone, notSent, late] = ['a', 'b', 'c', 'd', 'e'].map(opening) as [
      NewDelivery,
      NewDelivery,
      NewDelivery,
      NewDelivery,
      NewDelivery,
    ];
    expect(
      await Promise.all([
        store.open(delivered, 1_000, { now: 1_200, status: 204, error: '', outcome: 'delivered' }),
        store.open(retried, 1_000, { now: 1_300, status: 503, error: 'the endpoint answered 503', outcome: 'retry', nextAttempt: 6_000 }),
        store.open(gone, 1_000, { now: 1_400, status: 410, error: 'the endpoint answered 410', outcome: 'gone' }),
        store.open(notSent, 1_000),
      ]),
    ).toEqual([true, true, true, true]);
    // Four opened in one call to a list of at most three: trimmed once, at the end of the call.
    expect(await redis.zcard(keys.webhookDeliveries(account, 'first'))).toBe(3);
    expect(await store.get(delivered.id)).toMatchObject({
      state: 'delivered',
      attempts: 1,
      lastStatus: 204,
      lastAttempt: 1_200,
      deliveredAt: 1_200,
      created: 1_000,
    });
    expect((await store.get(delivered.id))?.nextAttempt).toBeUndefined();
    expect(await store.get(retried.id)).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastStatus: 503,
      lastError: 'the endpoint answered 503',
      nextAttempt: 6_000,
    });
    expect(await store.get(gone.id)).toMatchObject({ state: 'dead', attempts: 1, lastStatus: 410 });
    expect((await webhooks().get(account, 'first'))?.disabled).toMatchObject({ reason: expect.stringContaining('410') });
    expect(await store.get(notSent.id)).toMatchObject({ state: 'pending', attempts: 0, nextAttempt: 1_000 });
    // One that exists keeps what it recorded: an attempt made again is not written over it.
    expect(await store.open(delivered, 2_000, { now: 2_100, status: 500, error: 'late', outcome: 'retry', nextAttempt: 9_000 })).toBe(false);
    expect(await store.get(delivered.id)).toMatchObject({ state: 'delivered', attempts: 1, created: 1_000 });
    // The recent list keeps its most recent, trimmed once per call.
    expect(await store.open(late, 3_000, { now: 3_100, status: 204, error: '', outcome: 'delivered' })).toBe(true);
    expect((await store.recent(account, 'first', 10))[0]?.executionId).toBe('e');
    expect(await redis.zcard(keys.webhookDeliveries(account, 'first'))).toBe(3);
    expect(await redis.zscore(keys.webhookDeliveries(account, 'first'), late.id)).toBe('3000');
  });

  it('an event claimed again after its lease ended says so, and its dispatcher opens a delivery before it sends it', async () => {
    await subscribe('again');
    const id = await run('SUCCESS');
    const member = `end\n${account}\n${id}`;
    const claim = async () => (await deliveries().claimEvents(Date.now(), 1, 1_000)).find((event) => event.member === member);
    expect(await claim()).toMatchObject({ claimedBefore: false });
    await waitFor(async () => Number(await redis.zscore(keys.webhookOutbox(), member)) < Date.now(), { what: 'the lease to end' });
    expect(await claim()).toMatchObject({ claimedBefore: true });
    // The dead dispatcher opened the delivery and queued no job: the next one queues it, and it is sent once.
    const deliveryId = webhookDeliveryId(account, 'again', id, 'end');
    const body = webhookBody('execution.ended', must(await executions().get(id)));
    expect(await deliveries().open({ id: deliveryId, account, webhook: 'again', executionId: id, type: 'execution.ended', url, body }, Date.now())).toBe(true);
    await waitFor(async () => Number(await redis.zscore(keys.webhookOutbox(), member)) < Date.now(), { what: 'the lease to end' });
    await dispatcher().dispatch();
    await waitFor(async () => (await deliveries().get(deliveryId))?.state === 'delivered', { what: 'the delivery' });
    expect(received.map((request) => request.headers['webhook-id'])).toEqual([deliveryId]);
    expect(await deliveries().get(deliveryId)).toMatchObject({ attempts: 1 });
  });

  it("claims each event with the fields of its run's record that make the same body as the whole record", async () => {
    await subscribe('exact', { events: ['execution.ended', 'execution.failed'] });
    const execution = newExecutionFixture({
      account,
      choreo: '/Test/Exact',
      choreoVersion: 3,
      schedule: { name: 'nightly', scheduledTime: 1_700_000_000_000 },
    });
    const store = executions();
    expect((await store.accept(execution, { maxRunningPerAccount: 0 })).outcome).toBe('accepted');
    await store.end(execution.id, { status: 'ERROR', outputs: { Result: 'half', [SEALED_OUTPUTS]: 'sealed' }, account, error: 'it broke' });
    // A lease of a millisecond: the events of the other tests are left as they were.
    const claimed = (await deliveries().claimEvents(Date.now(), 1, 1_000)).find((event) => event.executionId === execution.id);
    const whole = must(await store.get(execution.id));
    expect(claimed?.record).toMatchObject({ id: execution.id, account, choreo: '/Test/Exact', status: 'ERROR', choreoVersion: 3 });
    expect(webhookBody('execution.failed', must(claimed?.record))).toBe(webhookBody('execution.failed', whole));
    expect(JSON.parse(webhookBody('execution.failed', must(claimed?.record))).data).toMatchObject({
      execution: { version: '3', lasterror: 'it broke' },
      output: { Result: 'half' },
    });
  });
});
