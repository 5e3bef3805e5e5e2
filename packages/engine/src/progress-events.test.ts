import { type ChoreoDefinition, defineStepKind, parseDefinition } from '@ces/language';
import { createStepLibrary } from '@ces/steps';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ProgressEvent } from './progress-events.ts';
import { runChoreo } from './run-choreo.ts';
import type { EngineHooks } from './run-choreo.ts';

/** Every call of `test.count`, by name: the effect whose start must be told before it happens. */
let calls: string[] = [];

const count = defineStepKind({
  kind: 'test.count',
  description: 'Records its name; fails when asked.',
  argsSchema: z.strictObject({ name: z.string(), fail: z.string().default('') }),
  run: async ({ name, fail }) => {
    calls.push(name);
    if (fail !== '') throw new Error(fail);
    return { name };
  },
});

const library = createStepLibrary({ http: { allowPrivateNetworks: true, timeoutMs: 1000, maxResponseBytes: 1024 }, extraKinds: [count] });

function define(steps: unknown[]): ChoreoDefinition {
  const result = parseDefinition({ description: 'A test.', steps }, library);
  if (!result.ok) throw new Error(result.problems.join('\n'));
  return result.definition;
}

const hooks: EngineHooks = { beforeStep: () => undefined, afterStep: async () => undefined, afterProgress: async () => undefined };

/** Runs `definition`, keeping what the engine tells, each event with the effects done by then. */
async function told(definition: ChoreoDefinition, suspend = false) {
  calls = [];
  const events: (ProgressEvent & { callsBefore: number })[] = [];
  const outcome = await runChoreo({
    definition,
    inputs: {},
    steps: library,
    hooks,
    ...(suspend ? { suspension: { minimumMs: 1000, callbackUrl: () => undefined } } : {}),
    onProgress: async (event) => {
      events.push({ ...event, callsBefore: calls.length });
    },
  });
  return { outcome, events };
}

describe('what the engine tells as it goes', () => {
  it('tells each iteration and each step start, a pure step as such, before the step runs', async () => {
    const { outcome, events } = await told(
      define([
        {
          id: 'each',
          forEach: '{% [1, 2] %}',
          steps: [
            { id: 'label', kind: 'text.template', args: { text: 'item {{loop.item}}' } },
            { id: 'call', kind: 'test.count', args: { name: 'call {{loop.item}}' } },
          ],
        },
      ]),
    );
    expect(outcome.kind).toBe('completed');
    expect(events.map((event) => `${event.type} ${event.address}`)).toEqual([
      'iteration.started each[0]',
      'step.started each[0].label',
      'step.started each[0].call',
      'iteration.ended each[0]',
      'iteration.started each[1]',
      'step.started each[1].label',
      'step.started each[1].call',
      'iteration.ended each[1]',
    ]);
    const [, label, call, ended] = events;
    expect(label).toMatchObject({ id: 'label', iteration: 0, attempt: 1, pure: true, index: 0 });
    expect(call).toMatchObject({ id: 'call', iteration: 0, pure: false, callsBefore: 0 });
    expect(ended).toMatchObject({ iteration: 0, outcome: 'succeeded', callsBefore: 1 });
    expect(typeof (ended as { durationMs: number }).durationMs).toBe('number');
  });

  it('tells an iteration that failed, with the error', async () => {
    const { outcome, events } = await told(
      define([{ id: 'each', forEach: '{% [1] %}', steps: [{ id: 'call', kind: 'test.count', args: { name: 'x', fail: 'boom' } }] }]),
    );
    expect(outcome.kind).toBe('failed');
    expect(events.at(-1)).toMatchObject({ type: 'iteration.ended', address: 'each[0]', outcome: 'failed', error: 'each[0].call: boom' });
  });

  it('tells a durable wait begun, with when it is due', async () => {
    const before = Date.now();
    const { outcome, events } = await told(define([{ id: 'pause', kind: 'control.wait', args: { milliseconds: '60000' } }]), true);
    expect(outcome.kind).toBe('suspended');
    const wait = events.find((event) => event.type === 'wait.started');
    expect(wait).toMatchObject({ address: 'pause', waitFor: 'time' });
    expect((wait as { untilMs: number }).untilMs).toBeGreaterThanOrEqual(before + 60_000);
  });

  it('tells a wait in the worker as it begins, before the wait ends, and not as a durable one', async () => {
    const before = Date.now();
    const { outcome, events } = await told(
      define([
        { id: 'pause', kind: 'control.wait', args: { milliseconds: '50' } },
        { id: 'after', kind: 'test.count', args: { name: 'after' } },
      ]),
      true,
    );
    expect(outcome.kind).toBe('completed');
    const wait = events.find((event) => event.type === 'wait.started');
    expect(wait).toMatchObject({ address: 'pause', waitFor: 'time', inWorker: true, callsBefore: 0 });
    expect((wait as { untilMs: number }).untilMs).toBeGreaterThanOrEqual(before + 50);
    const afterStartedAt = (events.find((event) => event.type === 'step.started' && event.id === 'after') as { time: number }).time;
    expect((wait as { time: number }).time).toBeLessThan(afterStartedAt);
    expect(events.filter((event) => event.type === 'wait.started')).toHaveLength(1);
  });
});
