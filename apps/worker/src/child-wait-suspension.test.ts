import { createSandbox } from '@ces/sandbox';
import { createStepLibrary, DEFAULT_STEP_LIBRARY_OPTIONS } from '@ces/steps';
import { type ChildRuns, type ChoreoDefinition, definitionDigest, parseDefinition } from '@ces/language';
import { createLogger } from '@ces/observability';
import { createDefinitionStore, createExecutionStore, createKeySpace, type ExecutionStore } from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createExecutionProcessor } from './execution-processor.ts';
import { CHILD_WAIT_RECHECK_MS } from './taken-run.ts';

// The worker's side of a parent suspended while its child runs, against a real Redis: the
// suspension names the child, and a child that ends while the worker is still suspending the
// parent (before its job is delayed, when nobody can make the job due) is caught by the worker.
describe('a parent suspended while its child runs', () => {
  const prefix = isolatedPrefix('child-wait-suspension');
  const keys = createKeySpace(prefix);
  const sandbox = createSandbox();
  const steps = createStepLibrary({ ...DEFAULT_STEP_LIBRARY_OPTIONS, sandbox });
  const logger = createLogger({ name: 'child-wait-test', level: 'silent' });
  let redis: Redis;
  let store: ExecutionStore;

  const parsed = parseDefinition(
    {
      description: 'Runs a child.',
      outputs: {},
      steps: [{ id: 'child', kind: 'choreo.run', timeoutMs: 3_600_000, args: { choreo: '/Library/X' } }],
    },
    steps,
  );
  if (!parsed.ok) throw new Error(parsed.problems.join('; '));
  const parent: { definition: ChoreoDefinition; digest: string } = { definition: parsed.definition, digest: definitionDigest(parsed.definition) };

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'));
    store = createExecutionStore({ redis, keys, retentionSeconds: 300 });
    await createDefinitionStore({ redis, keys }).save(parent.digest, parent.definition);
  });

  afterAll(async () => {
    await deleteKeysWithPrefix(redis, prefix);
    redis.disconnect();
  });

  /** A parent RUNNING with one running child, whose ChildRuns never sees the child end but runs `onPause` when its wait is paused. */
  async function parentWithChild(onPause: (childId: string) => Promise<void> = async () => {}) {
    // A deadline past the re-check period, which would bound the delay otherwise.
    const parentRun = newExecutionFixture({ definitionDigest: parent.digest, deadline: Date.now() + 2 * CHILD_WAIT_RECHECK_MS });
    expect(await store.accept(parentRun, { maxRunningPerAccount: 0 })).toEqual({ outcome: 'accepted' });
    const child = newExecutionFixture({ parent: parentRun.id, depth: 1 });
    expect(await store.accept(child, { maxRunningPerAccount: 0, notifyParent: true })).toEqual({ outcome: 'accepted' });
    const children: ChildRuns = {
      start: async () => ({ id: child.id }),
      awaitEnd: (_id, signal) =>
        new Promise((_, reject) => {
          signal.addEventListener('abort', () => onPause(child.id).then(() => reject(new Error('stopped waiting'))), { once: true });
        }),
    };
    return { parentId: parentRun.id, childId: child.id, children };
  }

  function processorFor(children: ChildRuns) {
    return createExecutionProcessor({
      executions: store,
      definitions: createDefinitionStore({ redis, keys }),
      steps,
      sandbox,
      host: '10.0.0.7',
      workerId: 'w7',
      logger,
      suspension: { minimumMs: 50, callbackUrl: () => undefined },
      childRunsFor: () => children,
    });
  }

  /** The job's side, as BullMQ would keep it: when it was delayed until, and whether it was made due again. */
  function job(id: string, onDelayed: () => Promise<void> = async () => {}) {
    const seen = { delayedUntil: [] as number[], madeDue: 0 };
    return {
      seen,
      context: {
        executionId: id,
        handBack: async () => {
          throw new Error('not handed back');
        },
        requeue: async () => {
          throw new Error('not queued again');
        },
        defer: async (untilMs: number) => {
          seen.delayedUntil.push(untilMs);
          await onDelayed();
        },
        undefer: async () => {
          seen.madeDue += 1;
        },
      },
    };
  }

  it('is suspended naming its child, its job delayed no longer than the re-check period, and not made due while the child runs', async () => {
    const { parentId, children } = await parentWithChild();
    const { seen, context } = job(parentId);
    const before = Date.now();
    expect(await processorFor(children).process(context)).toBe('suspended');
    expect(seen.delayedUntil).toHaveLength(1);
    expect(seen.delayedUntil[0]).toBeLessThanOrEqual(Date.now() + CHILD_WAIT_RECHECK_MS);
    expect(seen.delayedUntil[0]).toBeGreaterThanOrEqual(before + CHILD_WAIT_RECHECK_MS);
    expect(seen.madeDue).toBe(0);
    expect(await store.waitIsDue(parentId, Date.now() + 60_000)).toBe(false);
    expect((await store.get(parentId))?.host).toBe('');
    const events = await redis.lrange(keys.executionEvents(parentId), 0, -1);
    expect(events.some((event) => /"type":"wait\.started".*"waitFor":"child"/.test(event))).toBe(true);
  });

  it('is made due at once when the child ended before the suspension was stored', async () => {
    const { parentId, children } = await parentWithChild(async (childId) => {
      expect(await store.end(childId, { status: 'SUCCESS' })).toEqual({ outcome: 'ended', status: 'SUCCESS' });
    });
    const { seen, context } = job(parentId);
    expect(await processorFor(children).process(context)).toBe('suspended');
    expect(await store.waitIsDue(parentId, Date.now() + 60_000)).toBe(true);
    expect(seen.madeDue).toBe(1);
  });

  it('makes its job due itself when the child ended after the suspension, before the job was delayed', async () => {
    const { parentId, children, childId } = await parentWithChild();
    // The child's end comes while the job is being delayed: whoever ended it found no delayed job to make due.
    const { seen, context } = job(parentId, async () => {
      expect(await store.end(childId, { status: 'SUCCESS' })).toEqual({ outcome: 'ended', status: 'SUCCESS', wokenParents: [parentId] });
    });
    expect(await processorFor(children).process(context)).toBe('suspended');
    expect(seen.madeDue).toBe(1);
  });
});
