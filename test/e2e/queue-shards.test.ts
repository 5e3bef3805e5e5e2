import type { LocalRedisCluster } from '@ces/local-runtime';
import { derivedExecutionId, executionShard } from '@ces/store';
import { waitFor } from '@ces/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Credential, type Stack, startStack, startStackOnCluster } from '../support/stack.ts';
import { StepCounter } from '../support/step-counter.ts';

const APPROVAL = 'Library/Examples/WaitForApproval';
const milliseconds = { description: 'How long the child waits.', type: 'STRING_VARIABLE', default: '1500' };
const counted = (step: number) => ({ id: `call${step}`, kind: 'http.request', args: { method: 'POST', url: `{{inputs.CounterURL}}/step/${step}` } });
const pause = (step: number) => ({ id: `wait${step}`, kind: 'control.wait', args: { milliseconds: '{{inputs.WaitMilliseconds}}' } });
const OWN_CHOREOS: Record<string, unknown> = {
  'Mine/Counted': {
    description: 'Four counted calls with waits between them.',
    inputs: {
      CounterURL: { description: 'Base URL of the step counter for this run.', type: 'STRING_VARIABLE', required: true },
      WaitMilliseconds: { description: 'Each wait.', type: 'STRING_VARIABLE', default: '1000' },
    },
    outputs: {},
    steps: [counted(0), pause(1), counted(2), pause(3), counted(4), pause(5), counted(6)],
  },
  'Mine/Child': {
    description: 'One wait.',
    inputs: { Milliseconds: milliseconds },
    outputs: {},
    steps: [{ id: 'wait', kind: 'control.wait', args: { milliseconds: '{{inputs.Milliseconds}}' } }],
  },
  'Mine/Parent': {
    description: 'Runs Mine/Child as a child.',
    inputs: { Milliseconds: milliseconds },
    outputs: {},
    steps: [{ id: 'child', kind: 'choreo.run', args: { choreo: '/Mine/Child', inputs: { Milliseconds: '{{inputs.Milliseconds}}' } } }],
  },
};

async function putOwnChoreos(stack: Stack, credential: Credential): Promise<void> {
  for (const [id, definition] of Object.entries(OWN_CHOREOS)) {
    const put = await stack.call('PUT', `/choreos/${id}`, credential, { body: JSON.stringify(definition) });
    expect(put.status, put.text).toBeOneOf([200, 201]);
  }
}

/** Starts runs of `choreo` until one lands on a shard other than the control slot's (shard 0). */
async function startOffShardZero(stack: Stack, choreo: string, credential: Credential, inputs: Record<string, string> = {}) {
  const elsewhere: string[] = [];
  for (let attempt = 0; attempt < 30; attempt += 1) {
    const id = await stack.startRun(choreo, credential, inputs);
    if (executionShard(id) !== 0) return { id, elsewhere };
    elsewhere.push(id);
  }
  throw new Error('no run landed off shard 0 in 30 tries');
}

/** Starts a run of Mine/Counted per tag, 50 at a time, each wait `waitMs` long; resolves with their ids. */
async function startCountedRuns(stack: Stack, credential: Credential, counter: StepCounter, tags: readonly string[], waitMs: number): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < tags.length; from += 50) {
    ids.push(
      ...(await Promise.all(
        tags
          .slice(from, from + 50)
          .map((tag) => stack.startRun('Mine/Counted', credential, { CounterURL: counter.urlFor(tag), WaitMilliseconds: String(waitMs) })),
      )),
    );
  }
  return ids;
}

const ofChoreo = async (stack: Stack, credential: Credential, choreo: string) =>
  (await stack.call('GET', '/choreo-executions?status=any', credential)).json().executions.filter((entry: { choreo: string }) => entry.choreo === choreo);

// QUEUE_SHARDS=3 on a six-node Cluster: each shard's hash tag on its own primary, one account's
// runs on all three, and every feature that reaches from one run to another (children, call
// backs, terminations) or from an account to its runs (quotas, lists, counts) across them.
describe('runs over three shards of a Redis Cluster', () => {
  let cluster: LocalRedisCluster;
  let stack: Stack;
  let stop: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    ({ cluster, stack, stop } = await startStackOnCluster({
      workers: 2,
      env: { QUEUE_SHARDS: '3', MAX_RUNNING_PER_ACCOUNT: '40' },
      // Parents and children both wait past the threshold, suspended: the slots serve the runs' steps.
      workerEnv: { DURABLE_WAIT_THRESHOLD_MS: '500', WORKER_CONCURRENCY: '24' },
    }));
    await putOwnChoreos(stack, stack.credentials.alice);
  }, 120_000);

  afterAll(async () => {
    await stop?.();
  });

  it('puts one account’s runs on every shard, each shard on its own primary, and lists them all', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    const primaries = await Promise.all(stack.layout.shards.map((shard) => cluster.primaryFor(shard.keys.prefix)));
    expect(new Set(primaries.map((node) => node.port)).size).toBe(3);

    const ids = await Promise.all(Array.from({ length: 30 }, () => stack.startRun('Library/Utilities/Encoding/Base64Encode', alice, { Text: 'x' })));
    for (const id of ids) expect((await stack.waitForEnd(id, alice, 30_000)).status).toBe('SUCCESS');
    expect(new Set(ids.map(executionShard))).toEqual(new Set([0, 1, 2]));
    // Each record is on its shard's primary, and no other.
    for (const id of ids.slice(0, 6)) {
      const shard = stack.layout.shardOf(id);
      const node = new Redis({ host: primaries[shard.index]?.host, port: primaries[shard.index]?.port });
      try {
        expect(await node.exists(shard.keys.execution(id))).toBe(1);
      } finally {
        node.disconnect();
      }
    }
    const listed = (await stack.call('GET', '/choreo-executions?status=any', alice)).json().executions.map((entry: { id: string }) => entry.id);
    for (const id of ids) expect(listed).toContain(id);

    // Synchronous runs wait for their end on their own shard's channel.
    for (let i = 0; i < 6; i += 1) {
      const sync = await stack.call('POST', '/choreos/Library/Utilities/Encoding/Base64Encode', alice, {
        body: '{"inputs": [{"name": "Text", "value": "sync"}]}',
      });
      expect(sync.status, sync.text).toBe(200);
      expect(sync.json().execution.status).toBe('SUCCESS');
    }
  });

  it("runs a child on its parent's shard, suspending its wait there", { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    const parents = await Promise.all(Array.from({ length: 6 }, () => stack.startRun('Mine/Parent', alice, { Milliseconds: '1500' })));
    // A wait past DURABLE_WAIT_THRESHOLD_MS holds no worker: its run waits in its shard's set.
    await waitFor(
      async () => {
        const waiting = await Promise.all(stack.layout.shards.map((shard) => stack.redis.zcard(shard.keys.waiting())));
        return waiting.some((count) => count > 0);
      },
      { timeoutMs: 20_000, what: 'a child suspended in its wait' },
    );
    for (const id of parents) expect((await stack.waitForEnd(id, alice, 60_000)).status).toBe('SUCCESS');
    for (const parent of parents) {
      const child = derivedExecutionId(`${parent}\nchild`, executionShard(parent));
      const record = await stack.executions.get(child);
      expect(record?.parent).toBe(parent);
      expect(record?.status).toBe('SUCCESS');
      expect(executionShard(child)).toBe(executionShard(parent));
    }
    expect((await ofChoreo(stack, alice, '/Mine/Child')).length).toBeGreaterThanOrEqual(6);
  });

  it('delivers a call back to a run on a shard other than the control slot’s', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    const { id, elsewhere } = await startOffShardZero(stack, APPROVAL, alice);
    const url = await waitFor(
      async () => ((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output?.ApprovalURL as string) || undefined,
      { timeoutMs: 20_000, what: 'the URL among the outputs' },
    );
    const delivered = await stack.http.request('POST', new URL(url).pathname, {
      body: JSON.stringify({ decision: 'approved' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(delivered.status, delivered.text).toBe(202);
    expect((await stack.waitForEnd(id, alice, 30_000)).status).toBe('SUCCESS');
    expect((await stack.call('GET', `/choreo-executions/${id}?view=outputs`, alice)).json().output.Decision).toBe('approved');
    for (const other of elsewhere) expect((await stack.call('DELETE', `/choreo-executions/${other}`, alice)).status).toBeLessThan(300);
  });

  it('terminates a parent off shard 0, and its child with it', { timeout: 90_000 }, async () => {
    const alice = stack.credentials.alice;
    const { id: parent, elsewhere } = await startOffShardZero(stack, 'Mine/Parent', alice, { Milliseconds: '60000' });
    const child = derivedExecutionId(`${parent}\nchild`, executionShard(parent));
    await waitFor(async () => (await stack.executions.get(child))?.status === 'RUNNING', { timeoutMs: 20_000, what: 'the child to run' });
    expect((await stack.call('DELETE', `/choreo-executions/${parent}`, alice)).status).toBeLessThan(300);
    expect((await stack.waitForEnd(parent, alice, 30_000)).status).toBe('TERMINATED_MANUALLY');
    expect((await stack.waitForEnd(child, alice, 30_000)).status).toBe('TERMINATED_MANUALLY');
    for (const other of elsewhere) expect((await stack.call('DELETE', `/choreo-executions/${other}`, alice)).status).toBeLessThan(300);
  });

  it("keeps an account's quota of running executions exact over every shard, and /ops counts them all", { timeout: 120_000 }, async () => {
    const bob = stack.credentials.bob;
    const ids = await Promise.all(Array.from({ length: 40 }, () => stack.startRun(APPROVAL, bob)));
    expect(new Set(ids.map(executionShard))).toEqual(new Set([0, 1, 2]));
    for (let i = 0; i < 3; i += 1) {
      const refused = await stack.call('POST', `/choreos/${APPROVAL}?mode=async`, bob, { body: '{"inputs": []}' });
      expect(refused.status, refused.text).toBe(429);
    }
    const operator = stack.credentials.operator;
    const basic = { authorization: `Basic ${Buffer.from(`${operator.name}:${operator.secret}`).toString('base64')}` };
    await waitFor(async () => (await stack.http.request('GET', '/ops/executions', { headers: basic })).json().executions.waitingForCallBack >= 40, {
      timeoutMs: 60_000,
      what: "every one of bob's runs to wait for its call back",
    });
    const counts = (await stack.http.request('GET', '/ops/executions', { headers: basic })).json().executions;
    expect(counts.running).toBeGreaterThanOrEqual(40);
    const metrics = (await stack.http.request('GET', '/metrics', { headers: basic })).text;
    expect(Number(new RegExp(`^ces_executions_running\\{[^}]*account="${bob.account}"[^}]*\\} (\\d+)$`, 'm').exec(metrics)?.[1])).toBe(40);

    // A place freed on one shard is a place for a run on any.
    const freed = ids.find((id) => executionShard(id) === 2) as string;
    expect((await stack.call('DELETE', `/choreo-executions/${freed}`, bob)).status).toBeLessThan(300);
    const again = await stack.startRun(APPROVAL, bob);
    for (const id of [...ids.filter((id) => id !== freed), again]) {
      expect((await stack.call('DELETE', `/choreo-executions/${id}`, bob)).status).toBeLessThan(300);
    }
  });
});

// A deployment of one shard grows to three with runs in flight: the runs it had stay on shard 0
// and end there, taken by workers of the new value; new runs spread over the three.
describe('growing QUEUE_SHARDS from 1 to 3 with runs in flight', () => {
  let stack: Stack;

  beforeAll(async () => {
    // Parents wait for their children in their worker: every shard's share of its slots must hold them.
    stack = await startStack({ redisUrl: inject('redisUrl'), workers: 1, workerEnv: { DURABLE_WAIT_THRESHOLD_MS: '500', WORKER_CONCURRENCY: '30' } });
    await putOwnChoreos(stack, stack.credentials.alice);
  }, 60_000);

  afterAll(async () => {
    await stack?.stop();
  });

  it('loses none of them', { timeout: 120_000 }, async () => {
    const alice = stack.credentials.alice;
    const before = await Promise.all(Array.from({ length: 8 }, () => stack.startRun('Mine/Parent', alice, { Milliseconds: '3000' })));
    expect(before.map(executionShard)).toEqual(before.map(() => 0));
    const grown = { QUEUE_SHARDS: '3' };
    const api = await stack.addApi(grown);
    const worker = stack.addWorker(grown);
    await waitFor(async () => (await stack.liveWorkers()).length >= 2, { timeoutMs: 30_000, what: 'the new worker' });
    // The old worker stops: what it held goes back to shard 0's queue, for the new one.
    await stack.workers[0]?.stop();
    const after = await Promise.all(Array.from({ length: 8 }, () => stack.startRun('Mine/Parent', alice, { Milliseconds: '500' }, api)));
    expect(new Set(after.map(executionShard)).size).toBeGreaterThan(1);
    for (const id of [...before, ...after]) expect((await stack.waitForEnd(id, alice, 60_000)).status, stack.logs()).toBe('SUCCESS');
    expect(worker.running).toBe(true);
  });
});

/**
 * For a failover suite: three shards on a six-node Cluster of its own with replica acks, the own
 * Choreos put, and a step counter; started before the suite's tests and stopped after them.
 */
function useCountedStackOnCluster(options: { workers: number; durableWaitThresholdMs: number }) {
  const counter = new StepCounter();
  let started: { cluster: LocalRedisCluster; stack: Stack; stop(): Promise<void> } | undefined;
  beforeAll(async () => {
    await counter.start();
    started = await startStackOnCluster({
      workers: options.workers,
      env: { QUEUE_SHARDS: '3', MAX_RUNNING_PER_ACCOUNT: '400', REDIS_REPLICA_ACKS: '1' },
      workerEnv: { DURABLE_WAIT_THRESHOLD_MS: String(options.durableWaitThresholdMs), WORKER_CONCURRENCY: '150' },
    });
    await putOwnChoreos(started.stack, started.stack.credentials.alice);
  }, 120_000);
  afterAll(async () => {
    await started?.stop();
    await counter.close();
  });
  const must = () => {
    if (!started) throw new Error('the stack is not started yet');
    return started;
  };
  return {
    counter,
    get cluster() {
      return must().cluster;
    },
    get stack() {
      return must().stack;
    },
  };
}

// The primary of one shard SIGKILLed while 300 runs go on over three shards, with replica acks:
// the API answers 503 (never 500) while the shard has no primary, and every run ends once, each
// of its steps' effects made once. The runs wait in their workers: the kill meets them mid-step,
// holding their jobs' locks.
describe('a shard primary killed under 300 running runs', () => {
  const suite = useCountedStackOnCluster({ workers: 2, durableWaitThresholdMs: 86_400_000 });

  it('loses none, runs no step twice, and never answers 500', { timeout: 300_000 }, async () => {
    const { counter, cluster, stack } = suite;
    const alice = stack.credentials.alice;
    const tags = Array.from({ length: 300 }, (_, i) => `run${i}`);
    const ids = await startCountedRuns(stack, alice, counter, tags, 1500);
    await waitFor(async () => tags.every((tag) => counter.count(tag, 0) === 1), { timeoutMs: 60_000, what: 'every run to make its first call' });

    // Requests keep coming while the primary dies: status polls and new runs.
    const statuses: number[] = [];
    let polling = true;
    const poller = (async () => {
      for (let i = 0; polling; i += 1) {
        const id = ids[i % ids.length] as string;
        const answer = await stack.call('GET', `/choreo-executions/${id}`, alice).catch(() => undefined);
        if (answer) statuses.push(answer.status);
      }
    })();
    const victim = await cluster.primaryFor(stack.layout.shards[1]?.keys.prefix ?? '');
    await cluster.failOver(victim);
    await cluster.rejoin(victim);
    polling = false;
    await poller;

    for (const id of ids) expect((await stack.waitForEnd(id, alice, 120_000)).status, stack.logs()).toBe('SUCCESS');
    for (const tag of tags)
      expect(
        counter.stepsOf(tag).sort((a, b) => a - b),
        tag,
      ).toEqual([0, 2, 4, 6]);
    expect(statuses.length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status >= 500 && status !== 503)).toEqual([]);
    expect(new Set(ids.map(executionShard))).toEqual(new Set([0, 1, 2]));
  });
});

// The same death, once for each shard's primary in turn, while runs wait in durable waits: their
// jobs are delayed, and each shard's BullMQ worker blocks on its queue's marker on the primary
// that dies. BullMQ resets a blocking connection whose read outlasts its timeout, and must then
// take jobs again: every run ends, each step run once. One worker, so that none stands in for a
// shard's BullMQ worker that takes nothing.
describe('each shard primary killed in turn under runs in durable waits', () => {
  const suite = useCountedStackOnCluster({ workers: 1, durableWaitThresholdMs: 500 });

  it('loses none and runs no step twice', { timeout: 300_000 }, async () => {
    const { counter, cluster, stack } = suite;
    const alice = stack.credentials.alice;
    const tags: string[] = [];
    const ids: string[] = [];
    for (const shard of stack.layout.shards) {
      const batch = Array.from({ length: 50 }, (_, i) => `shard${shard.index}-run${i}`);
      ids.push(...(await startCountedRuns(stack, alice, counter, batch, 1500)));
      tags.push(...batch);
      await waitFor(async () => batch.every((tag) => counter.count(tag, 0) === 1), {
        timeoutMs: 60_000,
        what: 'every run of the batch to make its first call',
      });
      // A wait past DURABLE_WAIT_THRESHOLD_MS holds no worker: the kill meets runs suspended.
      await waitFor(async () => (await stack.redis.zcard(shard.keys.waiting())) > 0, { timeoutMs: 20_000, what: 'a run of the shard suspended in its wait' });
      const victim = await cluster.primaryFor(shard.keys.prefix);
      await cluster.failOver(victim);
      await cluster.rejoin(victim);
    }

    for (const id of ids) expect((await stack.waitForEnd(id, alice, 60_000)).status, stack.logs()).toBe('SUCCESS');
    for (const tag of tags)
      expect(
        counter.stepsOf(tag).sort((a, b) => a - b),
        tag,
      ).toEqual([0, 2, 4, 6]);
  });
});
