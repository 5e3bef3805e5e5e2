import { createSandbox } from '@ces/sandbox';
import { describe, expect, it } from 'vitest';
import { runStep, testLibraryOptions } from './run-step-for-test.ts';

// The depth is what is tested, not the time: a machine busy with other work must not fail it.
const roomy = { ...testLibraryOptions, sandbox: createSandbox({ timeLimitMs: 60_000 }) };

describe('json.find-property', () => {
  it('finds a property at any depth, in document order', async () => {
    const json = JSON.stringify({ id: 1, items: [{ id: 2, sub: { id: 3 } }, { id: 4 }], other: { id: 5 } });
    expect(await runStep('json.find-property', { json, property: 'id' })).toEqual({ result: '[1,2,3,4,5]', count: 5 });
    expect(await runStep('json.find-property', { json: '{"a":{"b":{"c":1}},"b":2}', property: 'b' })).toEqual({ result: '[{"c":1},2]', count: 2 });
  });

  it('gives a single scalar as its text, a single object as JSON, and [] when nothing matches', async () => {
    expect(await runStep('json.find-property', { json: '{"user":{"name":"Zoë"}}', property: 'name' })).toEqual({ result: 'Zoë', count: 1 });
    expect(await runStep('json.find-property', { json: '{"user":{"name":"Zoë"}}', property: 'user' })).toEqual({ result: '{"name":"Zoë"}', count: 1 });
    expect(await runStep('json.find-property', { json: '{"n":null}', property: 'n' })).toEqual({ result: 'null', count: 1 });
    expect(await runStep('json.find-property', { json: '[1,2]', property: 'x' })).toEqual({ result: '[]', count: 0 });
    // Array indexes are not property names.
    expect(await runStep('json.find-property', { json: '["a"]', property: '0' })).toEqual({ result: '[]', count: 0 });
  });

  it('takes any name literally, including ones that mean something in JSONPath', async () => {
    expect(await runStep('json.find-property', { json: '{"$..*":1,"a.b":2}', property: 'a.b' })).toEqual({ result: '2', count: 1 });
    expect(await runStep('json.find-property', { json: '{"__proto__":{"x":1}}', property: '__proto__' })).toEqual({ result: '{"x":1}', count: 1 });
  });

  it('walks very deep JSON without overflowing the stack', async () => {
    const depth = 100_000;
    const json = `${'{"a":['.repeat(depth)}{"z":"bottom"}${']}'.repeat(depth)}`;
    expect(await runStep('json.find-property', { json, property: 'z' }, roomy)).toEqual({ result: 'bottom', count: 1 });
    // Found at the top, the value is the whole depth: too deep to write again, said plainly.
    await expect(runStep('json.find-property', { json, property: 'a' }, roomy)).rejects.toMatchObject({
      name: 'InvalidStepInputError',
      message: 'the values found are nested too deeply to be written as JSON',
    });
  });

  it('fails on malformed JSON, saying what is wrong, and on an empty property name', async () => {
    await expect(runStep('json.find-property', { json: '{"a": 1,,}', property: 'a' })).rejects.toMatchObject({
      name: 'InvalidStepInputError',
      message: expect.stringMatching(/^JSON is not valid: .*position 8/),
    });
    await expect(runStep('json.find-property', { json: '', property: 'a' })).rejects.toThrow(/JSON is not valid/);
    await expect(runStep('json.find-property', { json: '{}', property: '' })).rejects.toThrow(/property name is empty/);
  });
});
