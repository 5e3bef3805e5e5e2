import { randomBytes } from 'node:crypto';
import {
  createAccountReservations,
  createSecretCipher,
  createWebhookStore,
  createExecutionStore,
  createKeySpace,
  createShardedExecutionStore,
  type ExecutionStore,
  executionShard,
  newExecutionId,
  type OverduePlace,
  overduePlaceAfter,
  placeExecutionId,
  openShardLayout,
  type ShardLayout,
  SHARD_SETTLE_MS,
  idempotencyShardText,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';

// Three shards on one Redis: each its own hash tag, the account's limits in the control slot.
describe('executions over three shards', () => {
  const redis = new Redis(inject('redisUrl'));
  const prefix = isolatedPrefix('shards');
  let layout: ShardLayout;
  let store: ExecutionStore;
  let reservations: ReturnType<typeof createAccountReservations>;

  beforeAll(async () => {
    layout = await openShardLayout(redis, createKeySpace(prefix), 3);
    reservations = createAccountReservations({ redis, layout, retentionSeconds: 300 });
    store = createShardedExecutionStore(
      layout,
      (shard) => createExecutionStore({ redis, keys: shard.keys, retentionSeconds: 300, reservations }),
      reservations,
    );
  });
  afterAll(async () => {
    for (const shard of layout.shards) await deleteKeysWithPrefix(redis, shard.keys.prefix);
    redis.disconnect();
  });

  const onShard = (shard: number, overrides: Parameters<typeof newExecutionFixture>[0] = {}) =>
    newExecutionFixture({ id: newExecutionId(shard), ...overrides });

  it('registers its shards once: a process started with fewer or more agrees on the tags', async () => {
    const fewer = await openShardLayout(redis, createKeySpace(prefix), 1);
    expect(fewer.shards.map((shard) => shard.keys.prefix)).toEqual(layout.shards.map((shard) => shard.keys.prefix));
    expect(fewer.active).toBe(1);
    const more = await openShardLayout(redis, createKeySpace(prefix), 4);
    expect(more.shards.slice(0, 3).map((shard) => shard.keys.prefix)).toEqual(layout.shards.map((shard) => shard.keys.prefix));
    expect(more.shards).toHaveLength(4);
    await redis.hdel(layout.control.shards(), '3');
  });

  it("maps a tick among the shards registered a settling time before it, the same whatever a process's QUEUE_SHARDS", async () => {
    const registeredAt = Number(await redis.hget(layout.control.shards(), 'added:2'));
    expect(registeredAt).toBeGreaterThan(0);
    const fewer = await openShardLayout(redis, createKeySpace(prefix), 1);
    for (const seen of [layout, fewer]) {
      expect(seen.shardsAt(registeredAt)).toBe(1);
      expect(seen.shardsAt(registeredAt + SHARD_SETTLE_MS)).toBe(3);
    }
    // Shards registered before their times were kept count for every tick.
    const legacy = createKeySpace(isolatedPrefix('shards-legacy'));
    await redis.hset(legacy.shards(), '1', layout.shards[1]?.keys.prefix ?? '', '2', layout.shards[2]?.keys.prefix ?? '');
    try {
      expect((await openShardLayout(redis, legacy, 1)).shardsAt(Date.now())).toBe(3);
    } finally {
      await redis.del(legacy.shards());
    }
  });

  it('pages the overdue waits of every shard as one set: by due time, then id, none twice, none left out', async () => {
    // Waits on all three shards, many due at the same moment (a fan-out's children ending together).
    const due = Date.now() - 60_000;
    const waits = [0, 1, 2].flatMap((shard) => [0, 1, 2].map((n) => ({ id: newExecutionId(shard), dueMs: due + (n === 2 ? 1 : 0) })));
    for (const wait of waits) await redis.zadd(layout.shards[executionShard(wait.id)]?.keys.waiting() ?? '', wait.dueMs, wait.id);
    const expected = [...waits].sort((one, other) => one.dueMs - other.dueMs || (one.id < other.id ? -1 : 1));
    const seen: string[] = [];
    let from: OverduePlace | undefined;
    do {
      const page = await store.overdueWaits(due + 10, 4, from);
      seen.push(...page.map((wait) => wait.id));
      from = overduePlaceAfter(page, 4, from);
    } while (from !== undefined);
    expect(seen).toEqual(expected.map((wait) => wait.id));
    for (const wait of waits) await redis.zrem(layout.shards[executionShard(wait.id)]?.keys.waiting() ?? '', wait.id);
  });

  it('puts each run on the shard its id names, and reads it back from there', async () => {
    const runs = [0, 1, 2].map((shard) => onShard(shard, { account: 'spread', starttime: Date.now() + shard }));
    for (const run of runs) expect(await store.accept(run, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    for (const run of runs) {
      const shard = layout.shards[executionShard(run.id)];
      expect(await redis.exists(shard?.keys.execution(run.id) ?? '')).toBe(1);
      expect((await store.get(run.id))?.status).toBe('RUNNING');
    }
    expect((await store.listRunning('spread')).map((row) => row.id)).toEqual(runs.map((run) => run.id));
    expect(await store.countRunning('spread')).toBe(3);
    expect((await store.counts()).started).toBeGreaterThanOrEqual(3);
  });

  it("keeps an account's quota of running executions exact over all shards, and frees a place at each end", async () => {
    const quota = { maxRunningPerAccount: 2 };
    const first = onShard(1, { account: 'quota' });
    const second = onShard(2, { account: 'quota' });
    expect(await store.accept(first, quota)).toEqual({ outcome: 'accepted' });
    expect(await store.accept(second, quota)).toEqual({ outcome: 'accepted' });
    for (const shard of [0, 1, 2]) expect(await store.accept(onShard(shard, { account: 'quota' }), quota)).toEqual({ outcome: 'quota-exceeded' });
    expect(await store.end(first.id, { status: 'SUCCESS' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    expect(await store.accept(onShard(0, { account: 'quota' }), quota)).toEqual({ outcome: 'accepted' });
    expect(await store.accept(onShard(1, { account: 'quota' }), quota)).toEqual({ outcome: 'quota-exceeded' });
  });

  it('frees the place of a run ended where no reservation was let go (a cascade, a crash) when the quota is reached', async () => {
    const quota = { maxRunningPerAccount: 1 };
    const parent = onShard(2, { account: 'cascade' });
    expect(await store.accept(parent, quota)).toEqual({ outcome: 'accepted' });
    // Ended by a script on its shard alone, as a parent's end ends its children.
    await redis.hset(layout.shards[2]?.keys.execution(parent.id) ?? '', 'status', 'TERMINATED_MANUALLY');
    expect(await store.accept(onShard(1, { account: 'cascade' }), quota)).toEqual({ outcome: 'accepted' });
  });

  it('gives back the place and the bytes of a run its shard refused', async () => {
    const run = onShard(1, { account: 'refused' });
    expect(await store.accept(run, { maxRunningPerAccount: 5, maxStoredBytesPerAccount: 1_000_000 })).toEqual({ outcome: 'accepted' });
    const before = await store.storedBytes('refused');
    expect(before).toBeGreaterThan(0);
    expect(await store.accept({ ...run, starttime: run.starttime + 1 }, { maxRunningPerAccount: 5, maxStoredBytesPerAccount: 1_000_000 })).toEqual({
      outcome: 'exists',
    });
    expect(await redis.zcard(layout.control.accountReservedRuns('refused'))).toBe(1);
    expect(await store.storedBytes('refused')).toBe(before);
  });

  it("keeps an account's budget of stored bytes over all shards", async () => {
    const big = { inputs: { Text: 'x'.repeat(600) } };
    const limits = { maxRunningPerAccount: 0, maxStoredBytesPerAccount: 1_000 };
    expect(await store.accept(onShard(1, { account: 'budget', ...big }), limits)).toEqual({ outcome: 'accepted' });
    // Counted once, in the control slot, whichever shard holds the run.
    const stored = await store.storedBytes('budget');
    expect(stored).toBeGreaterThan(600);
    expect(stored).toBeLessThan(1_000);
    expect(await store.accept(onShard(2, { account: 'budget', ...big }), limits)).toMatchObject({ outcome: 'budget-exceeded' });
    expect(await store.accept(onShard(0, { account: 'budget', inputs: { Text: 'x'.repeat(2_000) } }), limits)).toEqual({ outcome: 'larger-than-budget' });
  });

  it("counts a run's bytes once, in the control slot, on shard 0 as on the others, and no shard keeps a count of its own", async () => {
    const limits = { maxRunningPerAccount: 0, maxStoredBytesPerAccount: 1_000_000 };
    const grown = async (run: ReturnType<typeof onShard>) => {
      const before = await store.storedBytes('once', run.starttime);
      expect(await store.accept(run, limits)).toEqual({ outcome: 'accepted' });
      expect(await store.end(run.id, { status: 'SUCCESS', outputs: { Result: 'y'.repeat(100) } })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
      return (await store.storedBytes('once', run.starttime)) - before;
    };
    const starttime = Date.now();
    const elsewhere = await grown(onShard(1, { account: 'once', starttime }));
    expect(elsewhere).toBeGreaterThan(100);
    expect(await grown(onShard(0, { account: 'once', starttime }))).toBe(elsewhere);
    expect(await grown(onShard(2, { account: 'once', starttime }))).toBe(elsewhere);
    for (const shard of layout.shards) expect(await redis.keys(`${shard.keys.prefix}:stored:account:once:*:shard`)).toEqual([]);
    expect(await redis.keys(`${layout.shards[1]?.keys.prefix}:stored:account:once:*`)).toEqual([]);
  });

  it('accepts a run reserved before under another start time (a tick’s run asked for again after a crash), and keeps the place of one accepted then', async () => {
    const quota = { maxRunningPerAccount: 2 };
    const run = onShard(2, { account: 'again' });
    // Reserved by a process that died before its shard accepted the run.
    expect(await reservations.reserve({ id: run.id, account: 'again', starttime: run.starttime - 5_000, size: 100 }, { maxRunning: 2, budget: 0 })).toEqual({
      outcome: 'reserved',
    });
    expect(await store.accept(run, quota)).toEqual({ outcome: 'accepted' });
    expect(await store.accept({ ...run, starttime: run.starttime + 5_000 }, quota)).toEqual({ outcome: 'exists' });
    expect(await redis.zrange(layout.control.accountReservedRuns('again'), '0', '-1')).toEqual([run.id]);
    expect(await store.accept(onShard(1, { account: 'again' }), quota)).toEqual({ outcome: 'accepted' });
    expect(await store.accept(onShard(0, { account: 'again' }), quota)).toEqual({ outcome: 'quota-exceeded' });
  });

  it('leaves the place to a run its shard holds already when a second start of it finds it there, and gives back that start’s bytes', async () => {
    const run = onShard(1, { account: 'twice' });
    // Accepted by a start that holds no place now (a tick started at once by two processes, the other one first).
    const shardStore = createExecutionStore({ redis, keys: layout.shards[1]?.keys ?? createKeySpace(prefix), retentionSeconds: 300 });
    expect(await shardStore.accept(run, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    const before = await store.storedBytes('twice');
    expect(await store.accept({ ...run, starttime: run.starttime + 1 }, { maxRunningPerAccount: 5, maxStoredBytesPerAccount: 1_000_000 })).toEqual({
      outcome: 'exists',
    });
    expect(await redis.zrange(layout.control.accountReservedRuns('twice'), '0', '-1')).toEqual([run.id]);
    expect(await store.storedBytes('twice')).toBe(before);
  });

  it('answers an Idempotency-Key used before the deployment grew with the run it started then, on the shard the key mapped to', async () => {
    const fewer = await openShardLayout(redis, createKeySpace(prefix), 1);
    const textOf = (key: string) => idempotencyShardText('keyed', key);
    let key = 'key-0';
    for (let i = 1; layout.pickFor(textOf(key)).index === 0; i += 1) key = `key-${i}`;
    const idempotency = { key, requestDigest: 'digest' };
    const first = onShard(fewer.pickFor(textOf(key)).index, { account: 'keyed' });
    expect(await store.accept(first, { maxRunningPerAccount: 0, idempotency })).toEqual({ outcome: 'accepted' });
    // Retried through a process that knows three shards: the key maps elsewhere now.
    const retry = onShard(layout.pickFor(textOf(key)).index, { account: 'keyed' });
    expect(await store.accept(retry, { maxRunningPerAccount: 0, idempotency })).toEqual({ outcome: 'replay', executionId: first.id, sameRequest: true });
    expect(await store.get(retry.id)).toBeUndefined();
    expect(await store.accept(retry, { maxRunningPerAccount: 0, idempotency: { key, requestDigest: 'another' } })).toEqual({
      outcome: 'replay',
      executionId: first.id,
      sameRequest: false,
    });
    expect(await store.idempotencyEntry('keyed', key)).toEqual({ executionId: first.id, requestDigest: 'digest' });
  });

  it('accepts a batch over shards, each within the quota', async () => {
    const batch = [0, 1, 2, 0].map((shard) => onShard(shard, { account: 'batch' }));
    const outcomes = (await store.acceptMany(batch, { maxRunningPerAccount: 3 })).map((result) => result.outcome);
    expect(outcomes.sort()).toEqual(['accepted', 'accepted', 'accepted', 'quota-exceeded']);
    expect(await store.countRunning('batch')).toBe(3);
  });

  it('terminates a queued run on its shard and lets its place go', async () => {
    const quota = { maxRunningPerAccount: 1 };
    const queued = onShard(2, { account: 'terminated' });
    expect(await store.accept(queued, quota)).toEqual({ outcome: 'accepted' });
    expect(await store.requestTermination(queued.id)).toEqual({ status: 'RUNNING', ended: true });
    expect(await redis.zcard(layout.control.accountReservedRuns('terminated'))).toBe(0);
    expect(await store.accept(onShard(1, { account: 'terminated' }), quota)).toEqual({ outcome: 'accepted' });
  });

  it("keeps an account's executing runs within its limit over all shards, and counts a place freed by an end or a hand-back", async () => {
    const runs = [0, 1, 2, 1].map((shard, i) => onShard(shard, { account: 'executing', starttime: Date.now() + i }));
    for (const run of runs) expect(await store.accept(run, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    const take = (id: string, n: number) => store.take(id, { host: 'h', workerId: 'w', lease: `lease-${n}`, maxExecutingPerAccount: 2 });
    const [first, second, third, fourth] = runs.map((run) => run.id) as [string, string, string, string];
    expect((await take(first, 1)).outcome).toBe('taken');
    expect((await take(second, 2)).outcome).toBe('taken');
    // Taken again after its worker died: it keeps its place.
    expect((await take(second, 3)).outcome).toBe('taken');
    expect(await take(third, 4)).toEqual({ outcome: 'deferred', deferrals: 1, waiting: 2, deadline: runs[2]?.deadline });
    expect((await store.get(third))?.host).toBe('');
    expect(await store.end(first, { status: 'SUCCESS', lease: 'lease-1' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    expect((await take(third, 5)).outcome).toBe('taken');
    expect((await take(fourth, 6)).outcome).toBe('deferred');
    expect(await store.handBack(second, 'lease-3')).toBe('handed-back');
    expect((await take(fourth, 7)).outcome).toBe('taken');
  });
  it('keeps no reservation for an account without a quota', async () => {
    const run = onShard(1, { account: 'unlimited' });
    expect(await store.accept(run, { maxRunningPerAccount: 0, maxStoredBytesPerAccount: 1_000_000 })).toEqual({ outcome: 'accepted' });
    expect(await redis.exists(layout.control.accountReservedRuns('unlimited'))).toBe(0);
    expect(await store.storedBytes('unlimited')).toBeGreaterThan(0);
  });

  it('lets the places of the descendants an end terminates go with its own, and counts their outputs', async () => {
    const quota = { maxRunningPerAccount: 2 };
    const parent = onShard(2, { account: 'family' });
    const child = newExecutionFixture({ id: placeExecutionId(newExecutionId(), 2), account: 'family', parent: parent.id, depth: 1 });
    expect(await store.accept(parent, quota)).toEqual({ outcome: 'accepted' });
    expect(await store.accept(child, { ...quota, notifyParent: true, childOf: { address: 'child' } })).toEqual({ outcome: 'accepted' });
    expect(await redis.zcard(layout.control.accountReservedRuns('family'))).toBe(2);
    expect(await store.end(parent.id, { status: 'ERROR', error: 'failed' })).toEqual({ outcome: 'ended', status: 'ERROR' });
    expect((await store.get(child.id))?.status).toBe('TERMINATED_MANUALLY');
    expect(await redis.zcard(layout.control.accountReservedRuns('family'))).toBe(0);
  });

  it('answers a run given again with its Idempotency-Key as a replay, even at the quota', async () => {
    const quota = { maxRunningPerAccount: 1 };
    const idempotency = { key: 'once', requestDigest: 'digest-a' };
    const first = onShard(1, { account: 'retrying' });
    expect(await store.accept(first, { ...quota, idempotency })).toEqual({ outcome: 'accepted' });
    const again = onShard(1, { account: 'retrying' });
    expect(await store.accept(again, { ...quota, idempotency })).toEqual({ outcome: 'replay', executionId: first.id, sameRequest: true });
    expect(await redis.zcard(layout.control.accountReservedRuns('retrying'))).toBe(1);
  });

  it('lets go of a reservation whose run no shard holds a minute after it was made', async () => {
    const reservations = createAccountReservations({ redis, layout, retentionSeconds: 300 });
    const quota = { maxRunning: 1, budget: 0 };
    const orphan = onShard(1, { account: 'orphaned' });
    expect(await reservations.reserve({ id: orphan.id, account: 'orphaned', starttime: orphan.starttime, size: 10 }, quota)).toEqual({
      outcome: 'reserved',
    });
    // Too young to tell from a run on its way into its shard.
    expect(await reservations.prune('orphaned', Date.now())).toBe(0);
    expect(await store.accept(onShard(2, { account: 'orphaned' }), { maxRunningPerAccount: 1 })).toEqual({ outcome: 'quota-exceeded' });
    expect(await reservations.prune('orphaned', Date.now() + 61_000)).toBe(1);
    expect(await store.accept(onShard(2, { account: 'orphaned' }), { maxRunningPerAccount: 1 })).toEqual({ outcome: 'accepted' });
  });

  it("copies an account's webhook event counts to every shard, so a run on any is queued for its subscriptions", async () => {
    const webhooks = createWebhookStore({
      redis,
      keys: layout.control,
      layout,
      cipher: createSecretCipher({ current: randomBytes(32) }),
      maxWebhooksPerAccount: 0,
    });
    const spec = { url: 'https://example.test/hook', events: ['execution.ended' as const] };
    expect((await webhooks.put('hooked', 'ends', spec, ['/**'])).outcome).toBe('created');
    for (const shard of layout.shards) expect(await redis.hget(shard.keys.accountWebhookEvents('hooked'), 'execution.ended')).toBe('1');
    const run = onShard(2, { account: 'hooked' });
    expect(await store.accept(run, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    expect(await store.end(run.id, { status: 'SUCCESS' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    const shard2 = layout.shards[2]?.keys as (typeof layout.shards)[number]['keys'];
    expect(await redis.zscore(shard2.webhookOutbox(), `end\nhooked\n${run.id}`)).not.toBeNull();
    const version = Number(await redis.hget(shard2.accountWebhookEvents('hooked'), '~version'));
    expect(await webhooks.delete('hooked', 'ends')).toBe(true);
    expect(Number(await redis.hget(shard2.accountWebhookEvents('hooked'), '~version'))).toBe(version + 1);
    expect(await redis.hget(shard2.accountWebhookEvents('hooked'), 'execution.ended')).toBeNull();
    const after = onShard(2, { account: 'hooked' });
    expect(await store.accept(after, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    expect(await store.end(after.id, { status: 'SUCCESS' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    expect(await redis.zscore(shard2.webhookOutbox(), `end\nhooked\n${after.id}`)).toBeNull();
    // A copy older than the shard's (two changes copied in the other order) is not written over it.
    await redis.hset(shard2.accountWebhookEvents('hooked'), '~version', '1000', 'execution.failed', '1');
    expect((await webhooks.put('hooked', 'ends', spec, ['/**'])).outcome).toBe('created');
    expect(await redis.hgetall(shard2.accountWebhookEvents('hooked'))).toEqual({ '~version': '1000', 'execution.failed': '1' });
    expect(await redis.hget(layout.shards[1]?.keys.accountWebhookEvents('hooked') ?? '', 'execution.ended')).toBe('1');
  });
});

// A store over a layout that may grow sends each call at once, as the store of its one shard
// would: a run's record goes out before its job on their one connection (send-acceptance.ts).
describe('executions over a layout of one shard that may grow', () => {
  const redis = new Redis(inject('redisUrl'));
  const prefix = isolatedPrefix('one-shard');
  let store: ExecutionStore;
  let layout: ShardLayout;

  beforeAll(async () => {
    layout = await openShardLayout(redis, createKeySpace(prefix), 1);
    store = createShardedExecutionStore(layout, (shard) => createExecutionStore({ redis, keys: shard.keys, retentionSeconds: 300 }));
  });
  afterAll(async () => {
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });

  it('sends an acceptance before any command made after it on the same connection', async () => {
    const run = newExecutionFixture();
    const accepting = store.accept(run, { maxRunningPerAccount: 0 });
    expect(await redis.exists(layout.control.execution(run.id))).toBe(1);
    expect(await accepting).toEqual({ outcome: 'accepted' });
  });
});
