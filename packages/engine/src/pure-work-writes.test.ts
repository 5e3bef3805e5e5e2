import { describe, expect, it } from 'vitest';
import { defineStepKind, parseDefinition } from '@ces/language';
import { createStepLibrary } from '@ces/steps';
import type { ChoreoDefinition } from '@ces/language';
import { z } from 'zod';
import { runChoreo } from './run-choreo.ts';
import type { Checkpoint, CheckpointDelta, RunOutcome, StepEndEvent } from './run-choreo.ts';

/** What the run did, in order: each write it made, and each step with an effect as it ran. */
type Happening = { write: 'checkpoint'; nextStep: number } | { write: 'progress'; addresses: string[] } | { effect: string };

let happenings: Happening[] = [];
/** The fake clock the writes are paced on; `test.slow` moves it on. */
let clock = 0;

const effect = defineStepKind({
  kind: 'test.effect',
  description: 'Stands for a step with an effect (an HTTP request): records that it ran.',
  argsSchema: z.strictObject({ name: z.string() }),
  run: async ({ name }) => {
    happenings.push({ effect: name });
    return { name };
  },
});

const slow = defineStepKind({
  kind: 'test.slow',
  description: 'Pure work that takes `ms` on the fake clock.',
  argsSchema: z.strictObject({ ms: z.coerce.number() }),
  pure: true,
  run: async ({ ms }) => {
    clock += ms;
    return { ms };
  },
});

const library = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 1000, maxResponseBytes: 1024 }, extraKinds: [effect, slow] });

function define(steps: unknown[]): ChoreoDefinition {
  const result = parseDefinition({ description: 'A test.', outputs: {}, steps }, library);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

/** A pure step: one JSONata expression per item, as a template over records would be. */
const template = (id: string) => ({ id, kind: 'text.template', args: { text: '{% $uppercase($string(loop.item)) & "!" %}' } });

async function run(steps: unknown[], events: StepEndEvent[] = []): Promise<RunOutcome> {
  happenings = [];
  clock = 0;
  return runChoreo({
    definition: define(steps),
    inputs: {},
    steps: library,
    now: () => clock,
    onStepEnd: (event) => events.push(event),
    hooks: {
      beforeStep: () => undefined,
      afterStep: async (checkpoint: Checkpoint) => {
        happenings.push({ write: 'checkpoint', nextStep: checkpoint.nextStep });
        return undefined;
      },
      afterProgress: async (delta: CheckpointDelta) => {
        happenings.push({ write: 'progress', addresses: delta.entries.map(([address]) => address) });
        return undefined;
      },
    },
  });
}

describe('pure work is written with the next write, not one step at a time', () => {
  it('writes a forEach of pure steps in one batch, its end, with every step reported', async () => {
    const events: StepEndEvent[] = [];
    const outcome = await run([{ id: 'each', forEach: '{% [1..100] %}', steps: [template('shout')] }], events);
    expect(outcome.kind).toBe('completed');
    expect(happenings).toEqual([{ write: 'checkpoint', nextStep: 1 }]);
    expect(events).toHaveLength(100);
    expect(outcome.checkpoint.results.each).toHaveLength(100);
  });

  it('writes what pure steps did before a step with an effect starts, and the effect before the next step', async () => {
    const outcome = await run([
      template('first'),
      { id: 'each', forEach: '[1, 2]', steps: [template('shout'), { id: 'post', kind: 'test.effect', args: { name: '{{loop.index}}' } }] },
      template('last'),
    ]);
    expect(outcome.kind).toBe('completed');
    expect(happenings).toEqual([
      // The checkpoint before the block goes first, then the block's pending entries.
      { write: 'checkpoint', nextStep: 1 },
      { write: 'progress', addresses: ['each[0].shout'] },
      { effect: '0' },
      // The effect's iteration before the next (pure) step.
      { write: 'progress', addresses: ['each[0]'] },
      { write: 'progress', addresses: ['each[1].shout'] },
      { effect: '1' },
      // The block ended on an effect: its checkpoint at once; the last step's with the end.
      { write: 'checkpoint', nextStep: 2 },
      { write: 'checkpoint', nextStep: 3 },
    ]);
  });

  it('writes a top-level effect at once, and the pure steps before it first', async () => {
    const outcome = await run([template('a'), template('b'), { id: 'c', kind: 'test.effect', args: { name: 'c' } }, template('d'), template('e')]);
    expect(outcome.kind).toBe('completed');
    expect(happenings).toEqual([
      { write: 'checkpoint', nextStep: 2 },
      { effect: 'c' },
      { write: 'checkpoint', nextStep: 3 },
      { write: 'checkpoint', nextStep: 5 },
    ]);
  });

  it('writes pure work at least every 100 ms', async () => {
    const outcome = await run([{ id: 'each', forEach: '{% [1..10] %}', steps: [{ id: 'work', kind: 'test.slow', args: { ms: '30' } }] }]);
    expect(outcome.kind).toBe('completed');
    // 30 ms each: the bound is passed after the 4th iteration and the 8th, and written before the next step.
    expect(happenings).toEqual([
      { write: 'progress', addresses: ['each[0]', 'each[1]', 'each[2]', 'each[3]'] },
      { write: 'progress', addresses: ['each[4]', 'each[5]', 'each[6]', 'each[7]'] },
      { write: 'checkpoint', nextStep: 1 },
    ]);
  });

  it('writes top-level pure work at least every 100 ms', async () => {
    const slowStep = (id: string) => ({ id, kind: 'test.slow', args: { ms: '60' } });
    const outcome = await run([slowStep('a'), slowStep('b'), slowStep('c'), slowStep('d'), slowStep('e')]);
    expect(outcome.kind).toBe('completed');
    expect(happenings).toEqual([
      { write: 'checkpoint', nextStep: 2 },
      { write: 'checkpoint', nextStep: 4 },
      { write: 'checkpoint', nextStep: 5 },
    ]);
  });

  it('writes at most 500 steps in one batch', async () => {
    const outcome = await run([{ id: 'each', forEach: '{% [1..1200] %}', steps: [template('shout')] }]);
    expect(outcome.kind).toBe('completed');
    const batches = happenings.map((happening) => ('addresses' in happening ? happening.addresses.length : happening));
    expect(batches).toEqual([500, 500, { write: 'checkpoint', nextStep: 1 }]);
  });

  it('still asks before every pure step whether to stop, and stops between two of them', async () => {
    happenings = [];
    clock = 0;
    let asked = 0;
    const outcome = await runChoreo({
      definition: define([{ id: 'each', forEach: '{% [1..50] %}', steps: [template('shout')] }]),
      inputs: {},
      steps: library,
      now: () => clock,
      hooks: {
        beforeStep: () => {
          asked += 1;
          return asked > 20 ? 'termination-requested' : undefined;
        },
        afterStep: async (checkpoint) => {
          happenings.push({ write: 'checkpoint', nextStep: checkpoint.nextStep });
          return undefined;
        },
        afterProgress: async (delta) => {
          happenings.push({ write: 'progress', addresses: delta.entries.map(([address]) => address) });
          return undefined;
        },
      },
    });
    expect(outcome).toMatchObject({ kind: 'stopped', reason: 'termination-requested' });
    // Once before the loop, then before each step: the 20th step was refused.
    expect(asked).toBe(21);
    expect(happenings).toEqual([]);
  });

  it('resumes from the last write, computing again only the pure work after it', async () => {
    const definition = [{ id: 'each', forEach: '{% [1..10] %}', steps: [{ id: 'work', kind: 'test.slow', args: { ms: '30' } }] }];
    const events: StepEndEvent[] = [];
    happenings = [];
    clock = 0;
    const progress = new Map<string, unknown>([0, 1, 2, 3].map((index) => [`each[${index}]`, { ms: 30 }]));
    const outcome = await runChoreo({
      definition: define(definition),
      inputs: {},
      steps: library,
      now: () => clock,
      resumeFrom: { nextStep: 0, results: {}, progress },
      onStepEnd: (event) => events.push(event),
      hooks: { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined },
    });
    expect(outcome.kind).toBe('completed');
    expect(events.map((event) => event.address)).toEqual([4, 5, 6, 7, 8, 9].map((index) => `each[${index}].work`));
    expect(outcome.checkpoint.results.each).toEqual(Array.from({ length: 10 }, () => ({ ms: 30 })));
  });
});

describe('what a checkpoint stores of the results', () => {
  it('hands each checkpoint the results completed since the last one written: pure ones held back, a choice’s steps with it', async () => {
    const written: { nextStep: number; entries: string[] }[] = [];
    const outcome = await runChoreo({
      definition: define([
        { id: 'a', kind: 'test.slow', args: { ms: 1 } },
        { id: 'b', kind: 'test.slow', args: { ms: 1 } },
        { id: 'c', kind: 'test.effect', args: { name: 'c' } },
        { id: 'pick', choice: [{ when: { value: '1', equals: '1' }, steps: [{ id: 'inner', kind: 'test.effect', args: { name: 'inner' } }] }], default: [] },
        { id: 'last', kind: 'test.effect', args: { name: 'last' } },
      ]),
      inputs: {},
      steps: library,
      now: () => clock,
      hooks: {
        beforeStep: () => undefined,
        afterStep: async (checkpoint, { entries }) => {
          written.push({ nextStep: checkpoint.nextStep, entries: entries.map(([address]) => address) });
          return undefined;
        },
        afterProgress: async () => undefined,
      },
    });
    expect(outcome.kind).toBe('completed');
    expect(written).toEqual([
      { nextStep: 2, entries: ['a', 'b'] },
      { nextStep: 3, entries: ['c'] },
      { nextStep: 4, entries: ['inner', 'pick'] },
      { nextStep: 5, entries: ['last'] },
    ]);
  });

  it('hands the checkpoint after a block the addresses of what the block recorded, stored before or now, to delete: its result stands for them', async () => {
    const written: { entries: string[]; superseded: readonly string[] }[] = [];
    const progressWrites: string[][] = [];
    const runIt = (progress?: ReadonlyMap<string, unknown>) =>
      runChoreo({
        definition: define([{ id: 'each', forEach: '{% [1, 2, 3] %}', steps: [{ id: 'call', kind: 'test.effect', args: { name: 'call' } }] }]),
        inputs: {},
        steps: library,
        now: () => clock,
        ...(progress !== undefined ? { resumeFrom: { nextStep: 0, results: {}, progress } } : {}),
        hooks: {
          beforeStep: () => undefined,
          afterStep: async (_checkpoint, { entries, superseded }) => {
            written.push({ entries: entries.map(([address]) => address), superseded });
            return undefined;
          },
          afterProgress: async (delta) => {
            progressWrites.push(delta.entries.map(([address]) => address));
            return undefined;
          },
        },
      });
    expect((await runIt()).kind).toBe('completed');
    // The last iteration's entry was never written: the block's result came first.
    expect(progressWrites).toEqual([['each[0]'], ['each[1]']]);
    expect(written).toEqual([{ entries: ['each'], superseded: ['each[0]', 'each[1]'] }]);

    written.length = 0;
    progressWrites.length = 0;
    expect((await runIt(new Map([['each[0]', { name: 'call' }]]))).kind).toBe('completed');
    expect(progressWrites).toEqual([['each[1]']]);
    expect(written).toEqual([{ entries: ['each'], superseded: ['each[0]', 'each[1]'] }]);
  });
});
