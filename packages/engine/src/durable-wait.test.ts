import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createStepLibrary } from '@ces/steps';
import { type ChoreoDefinition, defineStepKind, parseDefinition } from '@ces/language';
import { z } from 'zod';
import { runChoreo } from './run-choreo.ts';
import type { Checkpoint, EngineHooks, ResumePoint, RunOutcome } from './run-choreo.ts';

/** Every call of `test.count`, by name: the side effect a resumed run must not repeat. */
let calls: string[] = [];

const count = defineStepKind({
  kind: 'test.count',
  description: 'Records its name and returns it.',
  argsSchema: z.strictObject({ name: z.string() }),
  run: async ({ name }) => {
    calls.push(name);
    return { name };
  },
});

const library = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 1000, maxResponseBytes: 1024 }, extraKinds: [count] });
const SUSPEND_FROM_MS = 1000;

function define(steps: unknown[]): ChoreoDefinition {
  const result = parseDefinition({ description: 'A test.', steps }, library);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

/** Hooks that keep what a store would: the last checkpoint and the progress appended since. */
function store(): EngineHooks & { checkpoint: Checkpoint | undefined; progress: Map<string, unknown> } {
  const state = {
    checkpoint: undefined as Checkpoint | undefined,
    progress: new Map<string, unknown>(),
    beforeStep: () => undefined,
    afterStep: async (checkpoint: Checkpoint) => {
      state.checkpoint = checkpoint;
      state.progress.clear();
      return undefined;
    },
    afterProgress: async (delta: { entries: readonly (readonly [string, unknown])[] }) => {
      for (const [address, value] of delta.entries) state.progress.set(address, value);
      return undefined;
    },
  };
  return state;
}

type StoredRun = ReturnType<typeof store>;

/** As the worker does: a top-level step's wait entries are stored with the suspension, and given back as progress. */
function keepWaitEntries(stored: StoredRun, outcome: RunOutcome): RunOutcome {
  if (outcome.kind === 'suspended') for (const [address, value] of outcome.waitEntries ?? []) stored.progress.set(address, value);
  return outcome;
}

async function run(definition: ChoreoDefinition, hooks: StoredRun, resumeFrom?: ResumePoint): Promise<RunOutcome> {
  calls = [];
  const outcome = await runChoreo({
    definition,
    inputs: {},
    steps: library,
    hooks,
    suspension: { minimumMs: SUSPEND_FROM_MS, callbackUrl: (token) => `https://service.test/run-callbacks/${token}` },
    ...(resumeFrom ? { resumeFrom } : {}),
  });
  return keepWaitEntries(hooks, outcome);
}

/** Where the stored run resumes, with every recorded wait made due (as when its timer has fired). */
function resumeWhenDue(stored: ReturnType<typeof store>, nextStep: number): ResumePoint {
  const progress = new Map(stored.progress);
  for (const address of progress.keys()) if (address.endsWith('@')) progress.set(address, Date.now() - 1);
  return { nextStep, results: stored.checkpoint?.results ?? {}, progress };
}

describe('durable waits', () => {
  const topLevel = define([
    { id: 'before', kind: 'test.count', args: { name: 'before' } },
    { id: 'wait', kind: 'control.wait', args: { milliseconds: '60000' } },
    { id: 'after', kind: 'test.count', args: { name: 'after' } },
  ]);

  it('suspends a long wait with its due time recorded, and the resumed run ends the wait then without running earlier steps again', async () => {
    const stored = store();
    const before = Date.now();
    const first = await run(topLevel, stored);
    expect(first.kind).toBe('suspended');
    const untilMs = first.kind === 'suspended' ? first.untilMs : 0;
    expect(untilMs).toBeGreaterThanOrEqual(before + 60_000);
    expect(stored.progress.get('wait@')).toBe(untilMs);
    expect(calls).toEqual(['before']);

    // Taken again before it is due (after a crash, say): suspended again until the same time, not later.
    const early = await run(topLevel, stored, { ...resumeWhenDue(stored, 1), progress: new Map(stored.progress) });
    expect(early).toMatchObject({ kind: 'suspended', untilMs });
    expect(calls).toEqual([]);

    const due = await run(topLevel, stored, resumeWhenDue(stored, 1));
    expect(due.kind).toBe('completed');
    expect(calls).toEqual(['after']);
    expect(due.checkpoint.results.wait).toEqual({ waitedMs: 60000 });
  });

  it('tells a step that suspends its run as suspended, not as a step that failed, and its end once resumed', async () => {
    const stored = store();
    const ends: { id: string; ok: boolean; suspended?: true }[] = [];
    const onStepEnd = ({ id, ok, suspended }: { id: string; ok: boolean; suspended?: true }) => {
      ends.push({ id, ok, ...(suspended ? { suspended } : {}) });
    };
    const options = {
      definition: topLevel,
      inputs: {},
      steps: library,
      hooks: stored,
      onStepEnd,
      suspension: { minimumMs: SUSPEND_FROM_MS, callbackUrl: () => '' },
    };
    keepWaitEntries(stored, await runChoreo(options));
    expect(ends).toEqual([
      { id: 'before', ok: true },
      { id: 'wait', ok: false, suspended: true },
    ]);
    ends.length = 0;
    expect((await runChoreo({ ...options, resumeFrom: resumeWhenDue(stored, 1) })).kind).toBe('completed');
    expect(ends).toEqual([
      { id: 'wait', ok: true },
      { id: 'after', ok: true },
    ]);
  });

  it("tells a call back's own due time beside the run's, when another branch's wait is due first", async () => {
    const block = define([
      {
        id: 'both',
        parallel: [
          [{ id: 'ask', kind: 'control.waitForCallback', args: { timeoutSeconds: '3600' } }],
          [{ id: 'pause', kind: 'control.wait', args: { milliseconds: '60000' } }],
        ],
      },
    ]);
    const before = Date.now();
    const outcome = await run(block, store());
    expect(outcome.kind).toBe('suspended');
    if (outcome.kind !== 'suspended') return;
    expect(outcome.untilMs).toBeLessThan(before + 120_000);
    expect(outcome.callback?.untilMs).toBeGreaterThanOrEqual(before + 3_600_000);
  });

  it('waits in-process below the threshold', async () => {
    const outcome = await run(define([{ id: 'wait', kind: 'control.wait', args: { milliseconds: '20' } }]), store());
    expect(outcome.kind).toBe('completed');
  });

  it('suspends a wait inside a loop, keeping the iterations and steps completed before it', async () => {
    const loop = define([
      {
        id: 'each',
        forEach: '[1,2]',
        steps: [
          { id: 'count', kind: 'test.count', args: { name: 'item {{loop.item}}' } },
          { id: 'pause', kind: 'control.wait', args: { milliseconds: '30000' } },
        ],
      },
      { id: 'after', kind: 'test.count', args: { name: 'after' } },
    ]);
    const stored = store();
    expect((await run(loop, stored)).kind).toBe('suspended');
    expect(calls).toEqual(['item 1']);
    expect([...stored.progress.keys()].sort()).toEqual(['each[0].count', 'each[0].pause@']);

    // Iteration 0's wait is due: it completes, iteration 1 waits in its turn.
    expect((await run(loop, stored, resumeWhenDue(stored, 0))).kind).toBe('suspended');
    expect(calls).toEqual(['item 2']);
    expect(stored.progress.has('each[0]')).toBe(true);
    expect(stored.progress.has('each[1].pause@')).toBe(true);

    const done = await run(loop, stored, resumeWhenDue(stored, 0));
    expect(done.kind).toBe('completed');
    expect(calls).toEqual(['after']);
  });

  it('suspends a wait inside a branch of a parallel block; the other branch is not run again', async () => {
    const parallel = define([
      {
        id: 'both',
        parallel: [[{ id: 'quick', kind: 'test.count', args: { name: 'quick' } }], [{ id: 'slow', kind: 'control.wait', args: { milliseconds: '30000' } }]],
      },
    ]);
    const stored = store();
    expect((await run(parallel, stored)).kind).toBe('suspended');
    expect(calls).toEqual(['quick']);
    const done = await run(parallel, stored, resumeWhenDue(stored, 0));
    expect(done.kind).toBe('completed');
    expect(calls).toEqual([]);
  });

  it("suspends in a call back's wait whichever branch suspends first, with its URL among the block's results so far", async () => {
    const parsed = parseDefinition(
      {
        description: 'A short wait beside a call back.',
        outputs: { URL: { description: 'The URL.', type: 'STRING_VARIABLE', value: "{% $exists(steps.both[1].url) ? steps.both[1].url : '' %}" } },
        steps: [
          {
            id: 'both',
            parallel: [
              [{ id: 'pause', kind: 'control.wait', args: { milliseconds: '60000' } }],
              [{ id: 'ask', kind: 'control.waitForCallback', args: { timeoutSeconds: '3600' } }],
            ],
          },
        ],
      },
      library,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const stored = store();
    const before = Date.now();
    const outcome = await run(parsed.definition, stored);
    if (outcome.kind !== 'suspended') throw new Error(`not suspended: ${outcome.kind}`);
    expect(outcome.callback?.address).toMatch(/ask$/);
    const token = stored.progress.get(`${outcome.callback?.address}@token`);
    expect(token).toEqual(outcome.callback?.token);
    expect(outcome.callback?.untilMs).toBeGreaterThanOrEqual(before + 3_600_000);
    expect(outcome.untilMs).toBeLessThan(before + 120_000);
    expect(outcome.checkpoint.outputs).toEqual({ URL: `https://service.test/run-callbacks/${token}` });
  });

  it('leaves a parallel block cut short by its enclosing loop unrecorded, to run again', async () => {
    const loop = define([
      {
        id: 'each',
        forEach: '[0,1]',
        concurrency: 2,
        steps: [
          {
            id: 'pick',
            choice: [{ when: '{% loop.item = 0 %}', steps: [{ id: 'pause', kind: 'control.wait', args: { milliseconds: '60000' } }] }],
            default: [
              {
                id: 'both',
                parallel: [
                  [
                    { id: 'slowA', kind: 'control.wait', args: { milliseconds: '50' } },
                    { id: 'a', kind: 'test.count', args: { name: 'a' } },
                  ],
                  [
                    { id: 'slowB', kind: 'control.wait', args: { milliseconds: '50' } },
                    { id: 'b', kind: 'test.count', args: { name: 'b' } },
                  ],
                ],
              },
            ],
          },
        ],
      },
    ]);
    const stored = store();
    expect((await run(loop, stored)).kind).toBe('suspended');
    // Iteration 1's branches were cut short by iteration 0's suspension: nothing of it is recorded as done.
    expect(stored.progress.has('each[1]')).toBe(false);
    const done = await run(loop, stored, resumeWhenDue(stored, 0));
    expect(done.kind).toBe('completed');
    expect(calls.sort()).toEqual(['a', 'b']);
  });
});

describe('waits for a call back', () => {
  const approval = parseDefinition(
    JSON.parse(readFileSync(new URL('../../../choreos/Library/Examples/WaitForApproval.json', import.meta.url), 'utf8')) as Record<string, unknown>,
    library,
  );
  if (!approval.ok) throw new Error(approval.problems.join('\n'));
  const definition = approval.definition;
  const inputs = { TimeoutSeconds: '3600' };
  const runApproval = async (hooks: StoredRun, resumeFrom?: ResumePoint) =>
    keepWaitEntries(
      hooks,
      await runChoreo({
        definition,
        inputs,
        steps: library,
        hooks,
        suspension: { minimumMs: SUSPEND_FROM_MS, callbackUrl: (token) => `https://service.test/run-callbacks/${token}` },
        ...(resumeFrom ? { resumeFrom } : {}),
      }),
    );

  it('suspends with a fresh 256-bit token, the URL among the outputs so far, and returns the body delivered', async () => {
    const stored = store();
    const first = await runApproval(stored);
    expect(first.kind).toBe('suspended');
    if (first.kind !== 'suspended') return;
    const token = stored.progress.get('approval@token') as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(first.callback).toEqual({ token, address: 'approval', untilMs: first.untilMs });
    expect(first.checkpoint.outputs).toEqual({ ApprovalURL: `https://service.test/run-callbacks/${token}`, Decision: '' });

    // Another run gets another token.
    const other = store();
    await runApproval(other);
    expect(other.progress.get('approval@token')).not.toBe(token);

    const progress = new Map(stored.progress);
    progress.set('approval@callback', { body: { decision: 'approved' } });
    const done = await runApproval(stored, { nextStep: 0, results: {}, progress });
    expect(done.kind).toBe('completed');
    expect(done.checkpoint.outputs).toEqual({ ApprovalURL: `https://service.test/run-callbacks/${token}`, Decision: 'approved' });
  });

  it('times out with Decision "timeout" when nothing came by the due time', async () => {
    const stored = store();
    await runApproval(stored);
    const done = await runApproval(stored, resumeWhenDue(stored, 0));
    expect(done.kind).toBe('completed');
    expect(done.checkpoint.outputs.Decision).toBe('timeout');
  });

  it("shows the URL of a wait inside a loop iteration among the outputs so far, then the next iteration's", async () => {
    const parsed = parseDefinition(
      {
        description: 'Asks twice.',
        outputs: {
          URL: {
            description: 'The URL of the iteration waiting.',
            type: 'STRING_VARIABLE',
            value: "{% $exists(steps.each[-1].url) ? steps.each[-1].url : '' %}",
          },
          Asked: { description: 'How many iterations have started.', type: 'STRING_VARIABLE', value: '{% $string($count(steps.each)) %}' },
        },
        steps: [{ id: 'each', forEach: '["first","second"]', steps: [{ id: 'ask', kind: 'control.waitForCallback', args: { timeoutSeconds: '3600' } }] }],
      },
      library,
    );
    if (!parsed.ok) throw new Error(parsed.problems.join('\n'));
    const loop = parsed.definition;
    const stored = store();
    const runLoop = async (resumeFrom?: ResumePoint) =>
      keepWaitEntries(
        stored,
        await runChoreo({
          definition: loop,
          inputs: {},
          steps: library,
          hooks: stored,
          suspension: { minimumMs: SUSPEND_FROM_MS, callbackUrl: (token) => `https://service.test/run-callbacks/${token}` },
          ...(resumeFrom ? { resumeFrom } : {}),
        }),
      );

    const first = await runLoop();
    expect(first).toMatchObject({ kind: 'suspended', callback: { address: 'each[0].ask' } });
    const firstToken = stored.progress.get('each[0].ask@token') as string;
    expect(first.checkpoint.outputs).toEqual({ URL: `https://service.test/run-callbacks/${firstToken}`, Asked: '1' });

    stored.progress.set('each[0].ask@callback', { body: { decision: 'yes' } });
    const second = await runLoop({ nextStep: 0, results: {}, progress: new Map(stored.progress) });
    expect(second).toMatchObject({ kind: 'suspended', callback: { address: 'each[1].ask' } });
    const secondToken = stored.progress.get('each[1].ask@token') as string;
    expect(secondToken).not.toBe(firstToken);
    expect(second.checkpoint.outputs).toEqual({ URL: `https://service.test/run-callbacks/${secondToken}`, Asked: '2' });

    stored.progress.set('each[1].ask@callback', { body: { decision: 'no' } });
    const done = await runLoop({ nextStep: 0, results: {}, progress: new Map(stored.progress) });
    expect(done.kind).toBe('completed');
    expect(done.checkpoint.outputs).toEqual({ URL: `https://service.test/run-callbacks/${secondToken}`, Asked: '2' });
    expect(done.checkpoint.results.each).toMatchObject([{ body: { decision: 'yes' } }, { body: { decision: 'no' } }]);
  });

  it('fails where the run cannot be suspended', async () => {
    const outcome = await runChoreo({ definition, inputs, steps: library, hooks: store() });
    expect(outcome).toMatchObject({ kind: 'failed', error: expect.stringContaining('can only be waited for by a run that can be suspended') });
  });
});
