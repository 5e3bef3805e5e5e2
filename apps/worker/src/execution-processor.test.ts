import { createSandbox } from '@ces/sandbox';
import { createStepLibrary, DEFAULT_STEP_LIBRARY_OPTIONS } from '@ces/steps';
import { type ChoreoDefinition, definitionDigest, parseDefinition } from '@ces/language';
import { createLogger } from '@ces/observability';
import { createDefinitionStore, createExecutionStore, createKeySpace, type ExecutionStore, type NewExecution } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture, must } from '@ces/testing';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FIRST_DEFERRAL_MS } from './deferral-delay.ts';
import { createExecutionProcessor } from './execution-processor.ts';

// The processor against a real Redis and the real step library; no queue: the processor never
// sees BullMQ. Most cases are about instant Choreos, which run before (or without) a take.
describe('execution processor: instant runs', () => {
  const prefix = isolatedPrefix('processor');
  const keys = createKeySpace(prefix);
  const sandbox = createSandbox();
  const steps = createStepLibrary({ ...DEFAULT_STEP_LIBRARY_OPTIONS, sandbox });
  const logger = createLogger({ name: 'processor-test', level: 'silent' });
  let redis: Redis;
  let store: ExecutionStore;
  let takes: string[];

  function define(raw: unknown): { definition: ChoreoDefinition; digest: string } {
    const parsed = parseDefinition(raw, steps);
    if (!parsed.ok) throw new Error(parsed.problems.join('; '));
    return { definition: parsed.definition, digest: definitionDigest(parsed.definition) };
  }

  const encode = define({
    description: 'Base64 of Text',
    inputs: { Text: { description: 'Text', required: true } },
    outputs: { Encoded: { description: 'Base64', value: '{{steps.encode.text}}' } },
    steps: [{ id: 'encode', kind: 'encoding.base64-encode', args: { text: '{{inputs.Text}}' } }],
  });
  const pause = define({
    description: 'Waits a moment',
    outputs: { Waited: { description: 'ms', value: '{{steps.pause.waitedMs}}' } },
    steps: [{ id: 'pause', kind: 'control.wait', args: { milliseconds: '1' } }],
  });

  const pauses = define({
    description: 'Waits three moments',
    outputs: { Waited: { description: 'ms', value: '{{steps.third.waitedMs}}' } },
    steps: ['first', 'second', 'third'].map((id) => ({ id, kind: 'control.wait', args: { milliseconds: '1' } })),
  });

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'));
    const plain = createExecutionStore({ redis, keys, retentionSeconds: 300 });
    // Counts takes; everything else goes straight to the real store.
    store = {
      ...plain,
      take: (id, take) => {
        takes.push(id);
        return plain.take(id, take);
      },
    };
    const definitions = createDefinitionStore({ redis, keys });
    for (const { digest, definition } of [encode, pause, pauses]) await definitions.save(digest, definition);
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });

  function processor(options: { maxExecutingPerAccount?: number; onDeferred?: () => void; holdsJobLock?: (id: string) => boolean } = {}) {
    takes = [];
    requeued = [];
    return createExecutionProcessor({
      executions: store,
      definitions: createDefinitionStore({ redis, keys }),
      steps,
      sandbox,
      host: '10.0.0.7',
      workerId: 'w7',
      logger,
      ...options,
    });
  }

  async function accept(digest: string, inputs: Record<string, string> = {}): Promise<NewExecution> {
    const execution = newExecutionFixture({ definitionDigest: digest, inputs });
    expect(await store.accept(execution, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    return execution;
  }
  let requeued: string[] = [];
  const queueingOf = (id: string) => ({
    handBack: async () => {
      throw new Error('an instant run is never handed back');
    },
    requeue: async () => {
      requeued.push(id);
    },
    defer: async () => {
      throw new Error('no limit is set, so nothing is deferred');
    },
    undefer: async () => {
      throw new Error('no limit is set, so nothing is deferred');
    },
  });

  it('runs an instant Choreo from the accepted execution, without taking it', async () => {
    const worker = processor();
    const accepted = await accept(encode.digest, { Text: 'hello' });
    expect(await worker.process({ executionId: accepted.id, accepted, ...queueingOf(accepted.id) })).toBe('ended');
    expect(takes).toEqual([]);
    expect(await store.get(accepted.id)).toMatchObject({
      status: 'SUCCESS',
      output: { Encoded: 'aGVsbG8=' },
      host: '10.0.0.7',
      workerId: 'w7',
    });
    // A run that succeeded reached every step: its record keeps no step reached.
    expect(await redis.hexists(keys.execution(accepted.id), 'step')).toBe(0);
  });

  it('logs one line for the end of a run, with its execution, account, Choreo and status', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const worker = createExecutionProcessor({
      executions: store,
      definitions: createDefinitionStore({ redis, keys }),
      steps,
      sandbox,
      host: '10.0.0.7',
      workerId: 'w7',
      logger: createLogger({ name: 'worker', level: 'info' }, sink).child({ workerId: 'w7' }),
    });
    const accepted = await accept(encode.digest, { Text: 'logged' });
    expect(await worker.process({ executionId: accepted.id, accepted, ...queueingOf(accepted.id) })).toBe('ended');
    await worker.endsSettled();
    const ended = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.msg === 'execution ended');
    expect(ended).toEqual([
      expect.objectContaining({
        level: 'info',
        workerId: 'w7',
        executionId: accepted.id,
        account: accepted.account,
        choreo: accepted.choreo,
        status: 'SUCCESS',
      }),
    ]);
  });

  it('queues the execution again, to be taken the usual way, when a worker has taken it already', async () => {
    const worker = processor();
    const accepted = await accept(encode.digest, { Text: 'again' });
    // A worker took it and vanished; its job came back (stalled), still carrying the accepted run.
    await store.take(accepted.id, { host: '10.0.0.1', workerId: 'gone', lease: 'lease-gone' });
    expect(await worker.process({ executionId: accepted.id, accepted, ...queueingOf(accepted.id) })).toBe('ended');
    await worker.endsSettled();
    // The end was refused and the job (completed with it) is gone: a new one is queued, without the run.
    expect(requeued).toEqual([accepted.id]);
    expect(must(await store.get(accepted.id)).status).toBe('RUNNING');
    expect(await worker.process({ executionId: accepted.id, ...queueingOf(accepted.id) })).toBe('ended');
    expect(takes).toEqual([accepted.id, accepted.id]);
    expect(await store.get(accepted.id)).toMatchObject({ status: 'SUCCESS', output: { Encoded: 'YWdhaW4=' }, host: '10.0.0.7', workerId: 'w7' });
  });

  it('queues the execution again when its end could not be sent', async () => {
    let failures = 0;
    const worker = createExecutionProcessor({
      executions: {
        ...store,
        end: async () => {
          failures += 1;
          throw new Error('Connection is closed.');
        },
      },
      definitions: createDefinitionStore({ redis, keys }),
      steps,
      sandbox,
      host: '10.0.0.7',
      workerId: 'w7',
      logger,
    });
    requeued = [];
    const accepted = await accept(encode.digest, { Text: 'lost' });
    expect(await worker.process({ executionId: accepted.id, accepted, ...queueingOf(accepted.id) })).toBe('ended');
    await worker.endsSettled();
    expect(failures).toBe(1);
    expect(requeued).toEqual([accepted.id]);
    expect(must(await store.get(accepted.id)).status).toBe('RUNNING');
  });

  it('ends as TERMINATED_MANUALLY a run flagged on a worker that handed it back before it ran', async () => {
    const worker = processor();
    const accepted = await accept(encode.digest, { Text: 'stop' });
    await store.take(accepted.id, { host: '10.0.0.9', workerId: 'stopping', lease: 'lease-stopping' });
    expect(await store.requestTermination(accepted.id)).toEqual({ status: 'RUNNING', ended: false });
    expect(await store.handBack(accepted.id, 'lease-stopping')).toBe('handed-back');
    expect(await worker.process({ executionId: accepted.id, ...queueingOf(accepted.id) })).toBe('ended');
    expect(must(await store.get(accepted.id)).status).toBe('TERMINATED_MANUALLY');
  });

  it('leaves an execution that ended meanwhile as it is', async () => {
    const worker = processor();
    const accepted = await accept(encode.digest, { Text: 'late' });
    await store.end(accepted.id, { status: 'TERMINATED_LIMIT' });
    expect(await worker.process({ executionId: accepted.id, accepted, ...queueingOf(accepted.id) })).toBe('ended');
    expect(await store.get(accepted.id)).toMatchObject({ status: 'TERMINATED_LIMIT', host: '', output: {} });
  });

  it('takes a Choreo that is not instant before running it, whatever the job carries', async () => {
    const worker = processor();
    const accepted = await accept(pause.digest);
    expect(await worker.process({ executionId: accepted.id, accepted, ...queueingOf(accepted.id) })).toBe('ended');
    expect(takes).toEqual([accepted.id]);
    expect(await store.get(accepted.id)).toMatchObject({ status: 'SUCCESS', output: { Waited: '1' }, host: '10.0.0.7' });
  });

  it('puts a run back to wait, untaken, while its account has its maximum executing', async () => {
    let deferredCount = 0;
    const worker = processor({ maxExecutingPerAccount: 1, onDeferred: () => (deferredCount += 1) });
    const [held, waiting] = [1, 2].map(() => newExecutionFixture({ account: 'limited', definitionDigest: pause.digest }));
    for (const execution of [must(held), must(waiting)]) await store.accept(execution, { maxRunningPerAccount: 0 });
    expect(await store.take(must(held).id, { host: '10.0.0.1', workerId: 'other', lease: 'other', maxExecutingPerAccount: 1 })).toMatchObject({
      outcome: 'taken',
    });

    const deferredUntil: number[] = [];
    const before = Date.now();
    const queueing = { ...queueingOf(must(waiting).id), defer: async (untilMs: number) => void deferredUntil.push(untilMs) };
    expect(await worker.process({ executionId: must(waiting).id, ...queueing })).toBe('deferred');
    expect(deferredCount).toBe(1);
    expect(deferredUntil).toHaveLength(1);
    // The first refusal waits between half of FIRST_DEFERRAL_MS and all of it.
    expect(must(deferredUntil[0]) - before).toBeGreaterThanOrEqual(FIRST_DEFERRAL_MS / 2);
    expect(must(deferredUntil[0]) - Date.now()).toBeLessThanOrEqual(FIRST_DEFERRAL_MS);
    expect(await store.get(must(waiting).id)).toMatchObject({ status: 'RUNNING', host: '', lease: '' });

    await store.end(must(held).id, { status: 'SUCCESS', lease: 'other', account: 'limited' });
    expect(await worker.process({ executionId: must(waiting).id, ...queueing })).toBe('ended');
    expect(await store.get(must(waiting).id)).toMatchObject({ status: 'SUCCESS', host: '10.0.0.7' });
  });

  it('defers no run past its deadline, and makes one due at once whose termination came meanwhile', async () => {
    const worker = processor({ maxExecutingPerAccount: 1 });
    const account = 'deadlined';
    const held = newExecutionFixture({ account, definitionDigest: pause.digest });
    const soon = Date.now() + 2_000;
    const [ending, cancelled] = [1, 2].map(() => newExecutionFixture({ account, definitionDigest: pause.digest, deadline: soon }));
    for (const execution of [held, must(ending), must(cancelled)]) await store.accept(execution, { maxRunningPerAccount: 0 });
    expect(await store.take(held.id, { host: '10.0.0.1', workerId: 'other', lease: 'other', maxExecutingPerAccount: 1 })).toMatchObject({ outcome: 'taken' });
    // Refused many times already: their next wait would be 5 s, past their deadline.
    for (const id of [must(ending).id, must(cancelled).id]) await redis.hset(keys.execution(id), 'deferrals', '20');

    const deferredUntil: number[] = [];
    let undeferred = 0;
    const queueing = (id: string, onDefer: () => Promise<void> = async () => {}) => ({
      ...queueingOf(id),
      defer: async (untilMs: number) => {
        deferredUntil.push(untilMs);
        await onDefer();
      },
      undefer: async () => {
        undeferred += 1;
      },
    });
    expect(await worker.process({ executionId: must(ending).id, ...queueing(must(ending).id) })).toBe('deferred');
    expect(deferredUntil).toEqual([soon]);
    expect(undeferred).toBe(0);

    // The DELETE comes while the worker holds the job to defer it: the run ends, but BullMQ keeps
    // the job, which the worker makes due at once for a take that drops it.
    expect(
      await worker.process({
        executionId: must(cancelled).id,
        ...queueing(must(cancelled).id, async () => void (await store.requestTermination(must(cancelled).id))),
      }),
    ).toBe('deferred');
    expect(undeferred).toBe(1);
    for (const id of [held.id, must(ending).id, must(cancelled).id]) await store.end(id, { status: 'SUCCESS' });
  });

  it('starts no further step once the job lock may have lapsed, and leaves the execution to be taken again', async () => {
    let checks = 0;
    // Held for the first two steps' checks, lost before the third.
    const worker = processor({ holdsJobLock: () => ++checks <= 2 });
    const accepted = await accept(pauses.digest);
    expect(await worker.process({ executionId: accepted.id, ...queueingOf(accepted.id) })).toBe('superseded');
    expect(checks).toBe(3);
    // Two steps done and recorded; the lease stays, so the next take fences this one off.
    expect(await store.get(accepted.id)).toMatchObject({ status: 'RUNNING', nextStep: 2, host: '10.0.0.7' });
    expect(worker.activeIds()).toEqual([]);
  });
});
