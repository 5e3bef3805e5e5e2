import { newExecutionFixture, must } from '@ces/testing';
import { describe, expect, it } from 'vitest';
import { storeOnRedis } from '../support/store-on-redis.ts';

// The store's atomic transitions against a real Redis: takes, checkpoints, hand-backs and ends,
// each one compare-and-set, fenced by the lease of the worker that took the execution last; and
// the summary a status poll reads.
describe('execution leases and checkpoints', () => {
  let counter = 0;
  const { keys, redis, store } = storeOnRedis('lease');

  async function running(): Promise<string> {
    counter += 1;
    const execution = newExecutionFixture({ id: `${counter.toString(16).padStart(4, '0')}${'cd'.repeat(14)}`, choreo: '/Test/Counted' });
    expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    return execution.id;
  }
  const step = (nextStep: number) => ({ nextStep, entries: [[`s${nextStep}`, nextStep]] as const, outputs: { Steps: String(nextStep) } });

  it('records the host on each take, and refuses checkpoints and ends from an earlier take', async () => {
    const id = await running();
    expect(must(await store.get(id)).host).toBe('');
    expect(await store.take(id, { host: '10.0.0.1', workerId: 'a', lease: 'lease-a' })).toMatchObject({
      outcome: 'taken',
      record: { host: '10.0.0.1', workerId: 'a', lease: 'lease-a' },
    });
    expect(await store.checkpoint(id, step(1), 'lease-a')).toBe('continue');

    // Worker b takes it over (a's job lock lapsed): a may no longer write anything.
    expect(await store.take(id, { host: '10.0.0.2', workerId: 'b', lease: 'lease-b' })).toMatchObject({
      outcome: 'taken',
      record: { host: '10.0.0.2', nextStep: 1, progressCursor: 's1' },
    });
    expect(await store.progress(id)).toEqual(new Map([['s1', 1]]));
    expect(await store.checkpoint(id, step(2), 'lease-a')).toBe('superseded');
    expect(await store.end(id, { status: 'SUCCESS', lease: 'lease-a' })).toEqual({ outcome: 'superseded' });
    expect(await store.handBack(id, 'lease-a')).toBe('superseded');
    expect(await store.get(id)).toMatchObject({ status: 'RUNNING', nextStep: 1, host: '10.0.0.2' });

    expect(await store.checkpoint(id, step(2), 'lease-b')).toBe('continue');
    expect(await store.end(id, { status: 'SUCCESS', lease: 'lease-b', nextStep: 2 })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    const ended = await store.get(id);
    // A run that succeeded keeps neither its progress nor the step it reached (all of them).
    expect(ended).toMatchObject({ status: 'SUCCESS', nextStep: 0, output: { Steps: '2' }, results: {}, lease: '' });
    expect(await redis.exists(keys.executionProgress(id))).toBe(0);
    expect(await redis.ttl(keys.execution(id))).toBeGreaterThan(290);
  });

  it('keeps of an ended run only what is read once it has ended', async () => {
    const execution = newExecutionFixture({
      outputFilters: [{ name: 'X', path: '$.x', variable: 'Out' }],
      publicBaseUrl: 'https://runs.example',
      parent: 'ab'.repeat(16),
      depth: 1,
    });
    expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    expect(await store.take(execution.id, { host: '10.0.0.1', workerId: 'a', lease: 'lease-a' })).toMatchObject({ outcome: 'taken' });
    expect(await redis.hmget(keys.execution(execution.id), 'deadline', 'store', 'filters', 'base', 'depth')).not.toContain(null);
    expect(await store.end(execution.id, { status: 'SUCCESS', lease: 'lease-a', nextStep: 1, outputs: { Out: 'x' } })).toEqual({
      outcome: 'ended',
      status: 'SUCCESS',
    });
    expect(await redis.hmget(keys.execution(execution.id), 'deadline', 'store', 'filters', 'base', 'depth', 'step')).toEqual([
      null,
      null,
      null,
      null,
      null,
      null,
    ]);
    expect(await store.get(execution.id)).toMatchObject({ status: 'SUCCESS', parent: execution.parent, output: { Out: 'x' }, host: '10.0.0.1' });
  });

  it("publishes each take in its worker's set of executions, and takes it out at a takeover, a hand-back and an end", async () => {
    const id = await running();
    const held = (worker: string) => redis.smembers(keys.workerExecutions(worker));
    await store.take(id, { host: '10.0.0.1', workerId: 'pa', lease: 'lease-pa' });
    expect(await held('pa')).toEqual([id]);
    expect(await redis.pttl(keys.workerExecutions('pa'))).toBeGreaterThan(0);
    await store.take(id, { host: '10.0.0.2', workerId: 'pb', lease: 'lease-pb' });
    expect([await held('pa'), await held('pb')]).toEqual([[], [id]]);
    expect(await store.handBack(id, 'lease-pb')).toBe('handed-back');
    expect(await held('pb')).toEqual([]);
    await store.take(id, { host: '10.0.0.3', workerId: 'pc', lease: 'lease-pc' });
    expect(await held('pc')).toEqual([id]);
    expect(await store.end(id, { status: 'SUCCESS', lease: 'lease-pc' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    expect(await held('pc')).toEqual([]);
  });

  it('answers a hand-back or an accept sent again after a lost reply as it answered the first', async () => {
    const id = await running();
    await store.take(id, { host: '10.0.0.1', workerId: 'a', lease: 'lease-a' });
    expect(await store.handBack(id, 'lease-a')).toBe('handed-back');
    expect(await store.handBack(id, 'lease-a')).toBe('handed-back');
    await store.take(id, { host: '10.0.0.2', workerId: 'b', lease: 'lease-b' });
    expect(await store.handBack(id, 'lease-a')).toBe('superseded');

    const execution = newExecutionFixture({ id: 'fe'.repeat(16) });
    expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    expect(await store.accept({ ...execution, starttime: execution.starttime + 1 }, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'exists' });
  });

  it('hands an execution back with host "" and lets the next take resume from the checkpoint', async () => {
    const id = await running();
    await store.take(id, { host: '10.0.0.1', workerId: 'a', lease: 'lease-a' });
    expect(await store.checkpoint(id, step(3), 'lease-a')).toBe('continue');
    expect(await store.handBack(id, 'lease-a')).toBe('handed-back');
    expect(await store.get(id)).toMatchObject({ status: 'RUNNING', host: '', workerId: '', lease: '', nextStep: 3 });
    // Handed back means handed back: no further writes under that lease.
    expect(await store.checkpoint(id, step(4), 'lease-a')).toBe('superseded');
    expect(await store.take(id, { host: '10.0.0.3', workerId: 'c', lease: 'lease-c' })).toMatchObject({
      outcome: 'taken',
      record: { host: '10.0.0.3', nextStep: 3 },
    });
    expect(await store.progress(id)).toEqual(new Map([['s3', 3]]));
  });

  it('records the checkpoint with a requested termination, and ends as TERMINATED_MANUALLY whatever is reported', async () => {
    const id = await running();
    await store.take(id, { host: '10.0.0.1', workerId: 'a', lease: 'lease-a' });
    expect(await store.requestTermination(id)).toEqual({ status: 'RUNNING', ended: false });
    expect(await store.checkpoint(id, step(1), 'lease-a')).toBe('termination-requested');
    expect(must(await store.get(id)).nextStep).toBe(1);
    expect(await store.end(id, { status: 'SUCCESS', lease: 'lease-a' })).toEqual({ outcome: 'ended', status: 'TERMINATED_MANUALLY' });
    expect(must(await store.get(id)).output).toEqual({ Steps: '1' });
  });

  it('keeps lasterror and errortime on ERROR, and never leaves a terminal status', async () => {
    const id = await running();
    await store.take(id, { host: '10.0.0.1', workerId: 'a', lease: 'lease-a' });
    expect(await store.end(id, { status: 'ERROR', error: 'call2: boom', lease: 'lease-a', now: 1234 })).toEqual({ outcome: 'ended', status: 'ERROR' });
    expect(await store.get(id)).toMatchObject({ status: 'ERROR', lasterror: 'call2: boom', errortime: 1234, endtime: 1234 });
    expect(await store.take(id, { host: '10.0.0.2', workerId: 'b', lease: 'lease-b' })).toMatchObject({
      outcome: 'ended',
      record: { status: 'ERROR', host: '10.0.0.1' },
    });
    expect(await store.requestTermination(id)).toEqual({ status: 'ERROR', ended: false });
    expect(await store.end(id, { status: 'SUCCESS' })).toEqual({ outcome: 'not-running', status: 'ERROR' });
    expect(await store.handBack(id, 'lease-a')).toBe('not-running');
    expect(must(await store.get(id)).status).toBe('ERROR');
  });

  describe('an instant run, ended without a take', () => {
    const runner = { host: '10.0.0.9', workerId: 'fast' };

    it('ends a never-taken execution and records who ran it', async () => {
      const id = await running();
      expect(await store.end(id, { status: 'SUCCESS', outputs: { Steps: '1' }, untakenBy: runner, nextStep: 1 })).toEqual({
        outcome: 'ended',
        status: 'SUCCESS',
      });
      expect(await store.get(id)).toMatchObject({ status: 'SUCCESS', host: '10.0.0.9', workerId: 'fast', output: { Steps: '1' }, lease: '' });
      expect(await redis.zscore(keys.running(), id)).toBeNull();
    });

    it('changes nothing once a worker has taken the execution, even after handing it back', async () => {
      const taken = await running();
      await store.take(taken, { host: '10.0.0.1', workerId: 'a', lease: 'lease-a' });
      expect(await store.end(taken, { status: 'SUCCESS', untakenBy: runner })).toEqual({ outcome: 'superseded' });
      expect(await store.get(taken)).toMatchObject({ status: 'RUNNING', host: '10.0.0.1', lease: 'lease-a' });

      const handedBack = await running();
      await store.take(handedBack, { host: '10.0.0.1', workerId: 'a', lease: 'lease-a' });
      expect(await store.handBack(handedBack, 'lease-a')).toBe('handed-back');
      expect(await store.end(handedBack, { status: 'SUCCESS', untakenBy: runner })).toEqual({ outcome: 'superseded' });
      expect(must(await store.get(handedBack)).status).toBe('RUNNING');
    });

    it('is ended TERMINATED_MANUALLY at once by a termination request, and never overwrites an end', async () => {
      const cancelled = await running();
      expect(await store.requestTermination(cancelled)).toEqual({ status: 'RUNNING', ended: true });
      expect(await store.end(cancelled, { status: 'SUCCESS', untakenBy: runner })).toEqual({ outcome: 'not-running', status: 'TERMINATED_MANUALLY' });

      const ended = await running();
      expect(await store.end(ended, { status: 'TERMINATED_LIMIT' })).toEqual({ outcome: 'ended', status: 'TERMINATED_LIMIT' });
      expect(await store.end(ended, { status: 'SUCCESS', untakenBy: runner })).toEqual({ outcome: 'not-running', status: 'TERMINATED_LIMIT' });
      expect(await store.get(ended)).toMatchObject({ status: 'TERMINATED_LIMIT', host: '' });
    });
  });

  // A status poll reads only what the answer shows: never the inputs or the step results.
  describe('summary', () => {
    it('reads the status fields, and the outputs only when asked for', async () => {
      const execution = newExecutionFixture({ inputs: { Secretish: 'x'.repeat(1000) } });
      await store.accept(execution, { maxRunningPerAccount: 0 });
      await store.take(execution.id, { host: '10.0.0.4', workerId: 'w', lease: 'lease' });
      await store.end(execution.id, { status: 'ERROR', error: 'boom', outputs: { Out: '1' }, lease: 'lease', now: execution.starttime + 5 });

      const plain = await store.summary(execution.id, { withOutputs: false });
      expect(plain).toMatchObject({
        id: execution.id,
        account: execution.account,
        choreo: execution.choreo,
        status: 'ERROR',
        starttime: execution.starttime,
        endtime: execution.starttime + 5,
        host: '10.0.0.4',
        lasterror: 'boom',
        errortime: execution.starttime + 5,
        output: {},
      });
      expect(plain).toMatchObject({ inputs: {} });
      expect(must(await store.summary(execution.id, { withOutputs: true })).output).toEqual({ Out: '1' });
    });

    it('lists running executions by their list fields, never their inputs, and leaves ended ones out', async () => {
      const account = `list${counter++}`;
      const first = newExecutionFixture({ account, inputs: { Large: 'x'.repeat(100_000) } });
      const second = newExecutionFixture({ account, starttime: first.starttime + 1 });
      const ended = newExecutionFixture({ account });
      for (const execution of [second, first, ended]) await store.accept(execution, { maxRunningPerAccount: 0 });
      await store.take(first.id, { host: '10.0.0.5', workerId: 'w5', lease: 'lease-5' });
      await store.requestTermination(first.id);
      await store.end(ended.id, { status: 'SUCCESS', outputs: {} });

      const listed = await store.listRunning(account);
      expect(listed.map((record) => record.id)).toEqual([first.id, second.id]);
      expect(listed[0]).toMatchObject({
        account,
        choreo: first.choreo,
        status: 'RUNNING',
        starttime: first.starttime,
        host: '10.0.0.5',
        workerId: 'w5',
        terminationRequested: true,
      });
      expect(listed[1]).toMatchObject({ host: '', workerId: '', terminationRequested: false });
      expect(JSON.stringify(listed)).not.toContain('xxxx');
    });

    it('lists from one row per run, kept by every change, and still lists runs that have none', async () => {
      const account = `rows${counter++}`;
      const at = (offset: number) => newExecutionFixture({ account, starttime: 1_700_000_000_000 + offset });
      const [taken, old, handedBack] = [at(0), at(1), at(2)];
      for (const execution of [taken, old, handedBack]) await store.accept(execution, { maxRunningPerAccount: 0 });
      await store.take(taken.id, { host: '10.0.0.6', workerId: 'w6', lease: 'lease-6' });
      await store.take(handedBack.id, { host: '10.0.0.7', workerId: 'w7', lease: 'lease-7' });
      expect(await store.handBack(handedBack.id, 'lease-7')).toBe('handed-back');
      // What a version that kept no rows leaves behind: a run without its row, and the row of a run
      // it ended.
      await redis.hdel(keys.accountRunningRows(account), old.id);
      const gone = 'f'.repeat(32);
      await redis.hset(keys.accountRunningRows(account), gone, `1\t\t\t\t/Test/Gone`);

      const listed = await store.listRunning(account);
      expect(listed.map((record) => record.id)).toEqual([taken.id, old.id, handedBack.id]);
      expect(listed[0]).toEqual({
        id: taken.id,
        account,
        choreo: taken.choreo,
        status: 'RUNNING',
        starttime: taken.starttime,
        host: '10.0.0.6',
        workerId: 'w6',
        terminationRequested: false,
      });
      expect(listed[1]).toMatchObject({ id: old.id, choreo: old.choreo, starttime: old.starttime, host: '' });
      expect(listed[2]).toMatchObject({ host: '', workerId: '' });
      // The stale row is dropped; each listed run's row is there, or written at its next change.
      expect(await redis.hexists(keys.accountRunningRows(account), gone)).toBe(0);
      await store.take(old.id, { host: '10.0.0.8', workerId: 'w8', lease: 'lease-8' });
      expect(await redis.hget(keys.accountRunningRows(account), old.id)).toBe(`${old.starttime}\t10.0.0.8\tw8\t\t${old.choreo}`);
      for (const execution of [taken, old, handedBack]) await store.end(execution.id, { status: 'SUCCESS' });
      expect(await store.listRunning(account)).toEqual([]);
      expect(await redis.exists(keys.accountRunningRows(account))).toBe(0);
    });

    it('is undefined for an execution that does not exist', async () => {
      expect(await store.summary('0'.repeat(32), { withOutputs: true })).toBeUndefined();
    });
  });
});
