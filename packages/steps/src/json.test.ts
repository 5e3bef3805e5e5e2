import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

const document = JSON.stringify({
  store: {
    book: [
      { title: 'A', price: 8 },
      { title: 'B', price: 12 },
    ],
    open: true,
  },
});

describe('json steps', () => {
  it.each([
    ['$.store.book[0].title', 'A', 1],
    ['$.store.book[1].price', '12', 1],
    ['$.store.open', 'true', 1],
    ['$..title', '["A","B"]', 2],
    ['$.store.book[0]', '{"title":"A","price":8}', 1],
    ['$.missing', '[]', 0],
  ])('json.query %s gives %s', async (path, result, count) => {
    expect(await runStep('json.query', { json: document, path })).toEqual({ result, count });
  });

  it('says what is wrong with malformed JSON, without retry', async () => {
    await expect(runStep('json.query', { json: '{"a": 1,}', path: '$.a' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/^JSON is not valid: .+/),
    });
  });

  it('refuses script expressions in JSONPath', async () => {
    await expect(runStep('json.query', { json: document, path: '$.store.book[?(@.price < 10)]' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('is not valid'),
    });
  });

  it('json.build builds an object from fields and entries', async () => {
    const result = await runStep('json.build', {
      fields: { name: 'Ada', tags: '["a","b"]', age: '36' },
      jsonFields: ['tags'],
      entries: [
        { name: 'dynamic', value: '{"x":1}', json: 'true' },
        { name: '__proto__', value: 'kept as a key' },
      ],
    });
    expect(JSON.parse((result as { json: string }).json)).toEqual({
      name: 'Ada',
      tags: ['a', 'b'],
      age: '36',
      dynamic: { x: 1 },
      ['__proto__']: 'kept as a key',
    });
  });

  it('json.build refuses JSON nested deeper than it can write, without retry', async () => {
    await expect(runStep('json.build', { entries: [{ name: 'v', value: `${'['.repeat(5000)}${']'.repeat(5000)}`, json: 'true' }] })).rejects.toMatchObject({
      retryable: false,
    });
    await expect(runStep('json.build', { fields: { v: `${'['.repeat(101)}${']'.repeat(101)}` }, jsonFields: ['v'] })).rejects.toMatchObject({
      retryable: false,
      message: 'JSON of field "v" is nested more than 100 levels deep',
    });
  });

  it('json.build names the field whose JSON is malformed', async () => {
    await expect(runStep('json.build', { fields: { tags: '[1,' }, jsonFields: ['tags'] })).rejects.toThrow(/JSON of field "tags" is not valid/);
  });

  it("json.format refuses a result that indentation makes huge, computed off the worker's thread", async () => {
    // Ten kilobytes nested a thousand deep become eight million characters at indent 8.
    const deep = `${'['.repeat(1000)}${']'.repeat(1000)}`;
    await expect(runStep('json.format', { json: deep, indent: '8' })).rejects.toMatchObject({
      retryable: false,
      message: 'the result would be 7988006 characters, more than 4194304',
    });
    expect(await runStep('json.format', { json: deep, indent: '0' })).toEqual({ json: deep });
  });

  it('json.format indents or minifies', async () => {
    expect(await runStep('json.format', { json: '{ "a" : [1, 2] }', indent: '0' })).toEqual({ json: '{"a":[1,2]}' });
    expect(await runStep('json.format', { json: '{"a":1}' })).toEqual({ json: '{\n  "a": 1\n}' });
  });
});
