import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

const catalog =
  '<catalog xmlns:x="urn:x"><book id="b1"><title>Dune</title><price>9.99</price></book><book id="b2"><title>Émma, "co"</title><x:title>Ns</x:title></book></catalog>';

describe('xml.get-values', () => {
  it('collects element values in document order, local names matching prefixed elements', async () => {
    expect(await runStep('xml.get-values', { xml: catalog, node: 'title', format: '' })).toEqual({ result: '["Dune","Émma, \\"co\\"","Ns"]' });
  });

  it('collects attribute values after "@", as CSV when asked', async () => {
    expect(await runStep('xml.get-values', { xml: catalog, node: '@id', format: 'CSV' })).toEqual({ result: 'b1,b2' });
    expect(await runStep('xml.get-values', { xml: catalog, node: 'title', format: 'csv' })).toEqual({ result: 'Dune,"Émma, ""co""",Ns' });
  });

  it('gives an empty list when nothing has the name, and XML for elements with children', async () => {
    expect(await runStep('xml.get-values', { xml: catalog, node: 'nothing', format: 'json' })).toEqual({ result: '[]' });
    expect(await runStep('xml.get-values', { xml: '<a><b><c>1</c></b></a>', node: 'b', format: 'json' })).toEqual({ result: '["<b><c>1</c></b>"]' });
  });

  it('reads megabytes within the limits, and a document nested deep without exhausting the stack', async () => {
    const value = 'ü'.repeat(10);
    const big = `<r>${`<v a="${value}">${value}</v>`.repeat(140_000)}</r>`;
    expect(big.length).toBeGreaterThan(4_000_000);
    const { result } = (await runStep('xml.get-values', { xml: big, node: 'v', format: 'csv' })) as { result: string };
    expect(result).toBe(Array(140_000).fill(value).join(','));
    const attributes = (await runStep('xml.get-values', { xml: big, node: '@a', format: 'json' })) as { result: string };
    expect(JSON.parse(attributes.result)).toHaveLength(140_000);
    const deep = `${'<d>'.repeat(99)}<v>1</v>${'</d>'.repeat(99)}`;
    expect(await runStep('xml.get-values', { xml: deep, node: 'v', format: 'json' })).toEqual({ result: '["1"]' });
  });

  it.each([
    ['', 'XML is empty'],
    ['<a><b></a>', 'XML is not valid'],
    ['<!DOCTYPE a [<!ENTITY x "boom">]><a>&x;</a>', 'DOCTYPE'],
  ])('refuses %j with a clear message', async (xml, message) => {
    await expect(runStep('xml.get-values', { xml, node: 'a', format: 'json' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringContaining(message),
    });
  });

  it('refuses an empty Node and an unknown format', async () => {
    await expect(runStep('xml.get-values', { xml: catalog, node: '@', format: 'json' })).rejects.toThrow(/Node must name/);
    await expect(runStep('xml.get-values', { xml: catalog, node: 'a', format: 'yaml' })).rejects.toThrow(/expected one of json, csv/);
  });
});

describe('xml.xpath-query', () => {
  it.each([
    ['select keeps the first match', '/catalog/book/title', '', '', 'Dune', 1],
    ['recursive keeps them all', '/catalog/book/title', 'recursive', 'json', '["Dune","Émma, \\"co\\""]', 2],
    ['recursive CSV puts one value per line', '//book/@id', 'recursive', 'csv', 'b1\nb2', 2],
    ['an element with children is an object', '/catalog/book[1]', 'select', 'json', '{"title":"Dune","price":"9.99","@id":"b1"}', 1],
    ['elements with children are CSV rows', '/catalog/book', 'recursive', 'csv', 'id,title,price,x:title\nb1,Dune,9.99,\nb2,"Émma, ""co""",,Ns', 2],
    ['a computed value is itself', 'count(//book)', 'select', 'json', '2', 1],
    ['no match in select mode is empty', '/catalog/none', 'select', 'json', '', 0],
    ['no match in recursive mode is an empty array', '/catalog/none', 'recursive', 'json', '[]', 0],
  ])('%s', async (_name, xpath, mode, format, result, count) => {
    expect(await runStep('xml.xpath-query', { xml: catalog, xpath, mode, format })).toEqual({ result, count });
  });

  it('returns matches in document order: an element, its attributes, then its children', async () => {
    const xml = '<a x="1"><b y="2"><c>3</c></b><d>4</d></a>';
    expect(await runStep('xml.xpath-query', { xml, xpath: '//d | //@* | //c', mode: 'recursive', format: 'json' })).toEqual({
      result: '["1","2","3","4"]',
      count: 4,
    });
  });

  it('queries a megabyte document, and refuses an empty one', async () => {
    const big = `<r>${'<v n="ü">Zoë</v>'.repeat(20_000)}</r>`;
    expect(await runStep('xml.xpath-query', { xml: big, xpath: '/r/v[last()]/@n', mode: '', format: '' })).toEqual({ result: 'ü', count: 1 });
    const { result, count } = (await runStep('xml.xpath-query', { xml: big, xpath: '/r/v', mode: 'recursive', format: 'csv' })) as {
      result: string;
      count: number;
    };
    expect(count).toBe(20_000);
    expect(result.split('\n')).toHaveLength(20_000);
    await expect(runStep('xml.xpath-query', { xml: ' ', xpath: '/a', mode: '', format: '' })).rejects.toThrow(/XML is empty/);
  });

  it('reports malformed XPath and XML clearly', async () => {
    await expect(runStep('xml.xpath-query', { xml: catalog, xpath: '/catalog/[', mode: '', format: '' })).rejects.toThrow(/XPath "\/catalog\/\[" is not valid/);
    await expect(runStep('xml.xpath-query', { xml: '<a>', xpath: '/a', mode: '', format: '' })).rejects.toThrow(/XML is not valid/);
    await expect(runStep('xml.xpath-query', { xml: catalog, xpath: '/a', mode: 'all', format: '' })).rejects.toThrow(/select, recursive/);
  });
});
