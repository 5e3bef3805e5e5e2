import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

describe('conversion steps', () => {
  it('xml-to-json keeps values as strings, attributes as @name, repeated elements as arrays', async () => {
    const { json } = (await runStep('conversion.xml-to-json', {
      xml: '<?xml version="1.0"?><order id="7"><item>01</item><item>b &amp; c</item><note/></order>',
    })) as { json: string };
    expect(JSON.parse(json)).toEqual({ order: { '@id': '7', item: ['01', 'b & c'], note: '' } });
  });

  it('xml-to-json quotes no more than a little of the XML it cannot read', async () => {
    const failure = runStep('conversion.xml-to-json', { xml: `<a${'‹'.repeat(900_000)}></a>` });
    await expect(failure).rejects.toMatchObject({ retryable: false });
    expect(((await failure.catch((error: Error) => error)) as Error).message.length).toBeLessThan(300);
  });

  it('xml-to-json refuses a DOCTYPE', async () => {
    await expect(runStep('conversion.xml-to-json', { xml: '<!DOCTYPE x SYSTEM "file:///etc/passwd"><x/>' })).rejects.toThrow(/DOCTYPE/);
  });

  it('json-to-xml escapes text and writes attributes', async () => {
    expect(await runStep('conversion.json-to-xml', { json: '{"@id":"1","name":"a < b & c","tag":["x","y"]}', rootElement: 'item' })).toEqual({
      xml: '<item id="1"><name>a &lt; b &amp; c</name><tag>x</tag><tag>y</tag></item>',
    });
  });

  it('json-to-xml without a root needs a single top-level property, and valid names', async () => {
    expect(await runStep('conversion.json-to-xml', { json: '{"a":{"b":"1"}}' })).toEqual({ xml: '<a><b>1</b></a>' });
    await expect(runStep('conversion.json-to-xml', { json: '{"a":1,"b":2}' })).rejects.toThrow(/exactly one property/);
    await expect(runStep('conversion.json-to-xml', { json: '{"bad name":1}', rootElement: 'r' })).rejects.toThrow(/cannot be an XML element/);
  });

  it('csv-to-json reads quoted fields, with or without a header row', async () => {
    const csv = 'name,city\n"Doe, Jane","New\nYork"\nBob,Paris\n';
    expect(await runStep('conversion.csv-to-json', { csv })).toEqual({
      json: JSON.stringify([
        { name: 'Doe, Jane', city: 'New\nYork' },
        { name: 'Bob', city: 'Paris' },
      ]),
      rows: 2,
    });
    expect(await runStep('conversion.csv-to-json', { csv: 'a;b\n1;2', delimiter: ';', header: 'false' })).toEqual({
      json: '[["a","b"],["1","2"]]',
      rows: 2,
    });
  });

  it('json-to-xml refuses what XML cannot hold, without retry', async () => {
    for (const [json, message] of [
      ['{"r":[[1,2],[3]]}', 'an array directly inside an array cannot be written as XML'],
      ['{"r":{"@a":{"b":1}}}', 'attribute "@a" must be a string, number or boolean'],
      [`{"r":${'{"a":'.repeat(101)}1${'}'.repeat(101)}}`, 'JSON is nested more than 100 levels deep'],
      [`${'['.repeat(10_000)}${']'.repeat(10_000)}`, 'JSON is nested more than 100 levels deep'],
    ] as const) {
      await expect(runStep('conversion.json-to-xml', { json, rootElement: 'root' }), message.slice(0, 30)).rejects.toMatchObject({ retryable: false, message });
    }
    expect(await runStep('conversion.json-to-xml', { json: `${'{"a":'.repeat(90)}1${'}'.repeat(90)}`, rootElement: 'root' })).toHaveProperty('xml');
  });

  it('csv-to-json refuses a CSV whose JSON would be too long, before writing it', async () => {
    // A 5000-character header repeated on each of 100,000 rows: half a billion characters.
    const csv = `${'A'.repeat(5000)}\n${'x\n'.repeat(100_000)}`;
    await expect(runStep('conversion.csv-to-json', { csv })).rejects.toMatchObject({
      retryable: false,
      message: 'CSV as JSON would be longer than 16777216 characters',
    });
  });

  it("converts megabytes off the worker's own thread, which keeps its timers running", async () => {
    // Seconds of work on the worker's thread would hold every other run, and let job locks lapse.
    const xml = `<rows>${'<row id="1"><name>x</name><value>12.5</value></row>'.repeat(60_000)}</rows>`;
    let ticks = 0;
    const ticker = setInterval(() => (ticks += 1), 10);
    let before = 0;
    try {
      await new Promise((resolve) => setTimeout(resolve, 0));
      before = ticks;
      const { json } = (await runStep('conversion.xml-to-json', { xml })) as { json: string };
      expect(JSON.parse(json).rows.row).toHaveLength(60_000);
    } finally {
      clearInterval(ticker);
    }
    expect(ticks - before).toBeGreaterThan(3);
  });

  it('gives conversions more room than queries: a result past 4 Mi characters is fine', async () => {
    const xml = `<r><a>${'x'.repeat(4_500_000)}</a></r>`;
    const { json } = (await runStep('conversion.xml-to-json', { xml })) as { json: string };
    expect(json.length).toBeGreaterThan(4 * 1024 * 1024);
  });

  it('csv-to-json reports malformed CSV', async () => {
    await expect(runStep('conversion.csv-to-json', { csv: 'a,b\n"unclosed,1' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining('CSV is not valid'),
    });
  });
});
