import { JSONPath } from 'jsonpath-plus';
import { describe, expect, it } from 'vitest';
import { queryJson } from './json-query.ts';
import { createSandbox } from './sandbox.ts';

describe('sandbox', () => {
  it('outlives threads that run out of memory after their time limit stopped them', async () => {
    // `$..*..*` on documents a few hundred levels deep takes about as long to fill 64 MiB as the
    // limit allows: some threads are stopped for time and then fail for memory while they end.
    const sandbox = createSandbox({ timeLimitMs: 300, maxResultLength: 1000, maxHeapMb: 64 });
    for (let depth = 300; depth < 384; depth += 7) {
      const json = `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      await expect(sandbox.queryJson({ json, path: '$..*..*' })).rejects.toThrow(/ran longer than 300 ms|needed more memory/);
    }
    expect(await sandbox.queryJson({ json: '{"a":[1,2]}', path: '$.a[1]' })).toEqual({ result: '2', count: 1 });
  }, 60_000);

  it('answers paths named like built-in properties', async () => {
    const sandbox = createSandbox();
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      const answer = await sandbox.queryJson({ json: JSON.stringify({ [name]: 'x' }), path: name });
      expect(answer.count, name).toBeLessThanOrEqual(1);
    }
  });
});

describe('JSONPath queries', () => {
  it('do not remember every path they were given', () => {
    for (let i = 0; i < 100; i += 1) queryJson({ a: i }, `$.a${' '.repeat(i)}`);
    expect(Object.keys(JSONPath.cache).length).toBeLessThanOrEqual(1);
  });
});
