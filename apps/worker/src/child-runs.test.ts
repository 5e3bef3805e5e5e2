import { fileURLToPath } from 'node:url';
import { ChildRefusedError, MAX_CHILD_DEPTH, StepAbortedError } from '@ces/language';
import { type Catalogue, loadCatalogue } from '@ces/catalogue';
import {
  acceptedRecord,
  createDefinitionStore,
  createExecutionEvents,
  createExecutionQueue,
  createExecutionStore,
  createKeySpace,
  createSecretCipher,
  openRunInputs,
  type ExecutionEvents,
  type SecretCipher,
  singleExecutionQueue,
} from '@ces/store';
import { deleteKeysWithPrefix, isolatedPrefix, newExecutionFixture } from '@ces/testing';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { catalogueLookup } from './child-choreos.ts';
import { childExecutionId, createChildRunsFactory } from './child-runs.ts';

const ENCODE = '/Library/Utilities/Encoding/Base64Encode';

describe('child runs', () => {
  const prefix = isolatedPrefix('child-runs');
  const keys = createKeySpace(prefix);
  let redis: Redis;
  let subscriber: Redis;
  let events: ExecutionEvents;
  let catalogue: Catalogue;
  let queue: ReturnType<typeof createExecutionQueue>;
  const executions = () => createExecutionStore({ redis, keys, retentionSeconds: 300 });

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    subscriber = new Redis(inject('redisUrl'));
    // No poll within a test: an end is seen on pub/sub, on the channel of children's ends.
    events = await createExecutionEvents({ subscriber, keys, listenFor: ['child-ends'], pollMs: 60_000 });
    queue = createExecutionQueue({ connection: redis, keys });
    catalogue = await loadCatalogue(fileURLToPath(new URL('../../../choreos', import.meta.url)));
  });

  afterAll(async () => {
    await events.close();
    await queue.close();
    await deleteKeysWithPrefix(redis, prefix);
    subscriber.disconnect();
    redis.disconnect();
  });

  const childRunsFor = (sealing: { cipher?: SecretCipher } = {}) =>
    createChildRunsFactory({
      executions: executions(),
      definitions: createDefinitionStore({ redis, keys }),
      queues: singleExecutionQueue(queue),
      events,
      lookup: catalogueLookup(catalogue),
      maxStoredBytesPerAccount: 0,
      ...sealing,
    });

  it('accepts one child per step address, under the parent, never past its deadline', async () => {
    const parent = acceptedRecord(newExecutionFixture({ deadline: Date.now() + 30_000 }));
    const children = childRunsFor()(parent);
    const { id } = await children.start({ choreo: ENCODE, inputs: { Text: 'hi' }, address: 'each[3].encode' });
    expect(id).toBe(childExecutionId(parent.id, 'each[3].encode'));
    expect(await executions().get(id)).toMatchObject({
      status: 'RUNNING',
      account: parent.account,
      choreo: ENCODE,
      inputs: { Text: 'hi' },
      parent: parent.id,
      depth: 1,
      deadline: parent.deadline,
    });
    expect(await queue.getJob(id)).toBeDefined();

    // The parent resumed on another worker starts the step again: the same child, not a second.
    const again = await childRunsFor()(parent).start({ choreo: ENCODE, inputs: { Text: 'hi' }, address: 'each[3].encode' });
    expect(again.id).toBe(id);
    expect((await executions().get(id))?.starttime).toBeLessThanOrEqual(Date.now());
    // Another address is another child.
    expect((await children.start({ choreo: ENCODE, inputs: { Text: 'hi' }, address: 'each[4].encode' })).id).not.toBe(id);
  });

  it('finds, resumed after a suspension for it, the child accepted before, without accepting it again', async () => {
    const parent = acceptedRecord(newExecutionFixture({ deadline: Date.now() + 30_000 }));
    const { id } = await childRunsFor()(parent).start({ choreo: ENCODE, inputs: { Text: 'hi' }, address: 'encode' });
    expect(await executions().end(id, { status: 'SUCCESS', outputs: { Base64EncodedText: 'aGk=' } })).toMatchObject({ outcome: 'ended' });
    await queue.remove(id);
    const resumed = await childRunsFor()(parent).start({ choreo: ENCODE, inputs: { Text: 'hi' }, address: 'encode', resumed: true });
    expect(resumed.id).toBe(id);
    // No job queued again for the ended child.
    expect(await queue.getJob(id)).toBeUndefined();
    // Its record gone (expired), it is not run a second time: its end reads as no longer kept.
    const other = acceptedRecord(newExecutionFixture({ deadline: Date.now() + 30_000 }));
    const gone = await childRunsFor()(other).start({ choreo: ENCODE, inputs: { Text: 'hi' }, address: 'encode', resumed: true });
    expect(await executions().get(gone.id)).toBeUndefined();
    expect(await childRunsFor()(other).awaitEnd(gone.id, new AbortController().signal)).toMatchObject({
      status: 'ERROR',
      error: 'the child execution is no longer kept',
    });
  });

  it('keeps the inputs a child declares secret sealed in its record, and refuses them without a key', async () => {
    const store = '/Library/Utilities/TokenStorage/StoreToken';
    const cipher = createSecretCipher({ current: randomBytes(32) });
    const parent = acceptedRecord(newExecutionFixture({ deadline: Date.now() + 30_000 }));
    const sealing = childRunsFor({ cipher })(parent);
    const { id } = await sealing.start({ choreo: store, inputs: { Name: 'api', Value: 'hunter2' }, address: 'store' });
    const raw = await redis.hgetall(keys.execution(id));
    expect(JSON.stringify(raw)).not.toContain('hunter2');
    const record = await executions().get(id);
    expect(record?.inputs).toEqual({ Name: 'api', Expires: '0' });
    expect(openRunInputs(cipher, id, record?.sealedInputs ?? '')).toEqual({ Value: 'hunter2' });
    await expect(childRunsFor()(parent).start({ choreo: store, inputs: { Name: 'api', Value: 'x' }, address: 'other' })).rejects.toThrow(
      /secret inputs cannot be kept: this worker has no SECRETS_KEY/,
    );
  });

  it(`refuses a child deeper than ${MAX_CHILD_DEPTH}, an unknown Choreo and missing inputs`, async () => {
    const deep = childRunsFor()(acceptedRecord(newExecutionFixture({ parent: 'p'.repeat(32), depth: MAX_CHILD_DEPTH })));
    await expect(deep.start({ choreo: ENCODE, inputs: { Text: 'x' }, address: 'a' })).rejects.toThrow(
      new ChildRefusedError(`sub-Choreos nest at most ${MAX_CHILD_DEPTH} deep; ${ENCODE} would run at depth ${MAX_CHILD_DEPTH + 1}`),
    );
    const children = childRunsFor()(acceptedRecord(newExecutionFixture({ parent: 'p'.repeat(32), depth: MAX_CHILD_DEPTH - 1 })));
    expect((await children.start({ choreo: ENCODE, inputs: { Text: 'x' }, address: 'a' })).id).toMatch(/^[0-9a-f]{32}$/);
    await expect(children.start({ choreo: '/Library/Nowhere', inputs: {}, address: 'b' })).rejects.toThrow(/no valid Choreo \/Library\/Nowhere/);
    // Base64Encode's Text is optional since its URL input: URLEncode still requires its Text.
    await expect(children.start({ choreo: '/Library/Utilities/Encoding/URLEncode', inputs: {}, address: 'c' })).rejects.toThrow(/required input missing: Text/);
  });

  it('waits for the published end and answers with the outputs', async () => {
    const children = childRunsFor()(acceptedRecord(newExecutionFixture()));
    const { id } = await children.start({ choreo: ENCODE, inputs: { Text: 'x' }, address: 'waited' });
    const waiting = children.awaitEnd(id, new AbortController().signal);
    await executions().end(id, { status: 'SUCCESS', outputs: { Base64EncodedText: 'eA==' } });
    expect(await waiting).toEqual({ status: 'SUCCESS', outputs: { Base64EncodedText: 'eA==' } });
    // A child that has ended already is answered at once.
    expect(await children.awaitEnd(id, new AbortController().signal)).toMatchObject({ status: 'SUCCESS' });
  });

  it('terminates the child when its parent is terminated, and leaves it running when the parent only stops', async () => {
    const children = childRunsFor()(acceptedRecord(newExecutionFixture()));
    const stopped = await children.start({ choreo: ENCODE, inputs: { Text: 'x' }, address: 'stopped' });
    const handBack = new AbortController();
    const left = children.awaitEnd(stopped.id, handBack.signal);
    handBack.abort('shutdown');
    await expect(left).rejects.toBeInstanceOf(StepAbortedError);
    expect((await executions().get(stopped.id))?.status).toBe('RUNNING');

    const terminated = await children.start({ choreo: ENCODE, inputs: { Text: 'x' }, address: 'terminated' });
    const termination = new AbortController();
    const cut = children.awaitEnd(terminated.id, termination.signal);
    termination.abort('termination-requested');
    await expect(cut).rejects.toBeInstanceOf(StepAbortedError);
    // Still queued (no worker here): taken out of the queue and ended at once.
    expect((await executions().get(terminated.id))?.status).toBe('TERMINATED_MANUALLY');
    expect(await queue.getJob(terminated.id)).toBeUndefined();
  });
});
