import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

const xml = '<catalog><book id="b1"><title>Dune</title><price>9.99</price></book><book id="b2"><title>Emma &amp; co</title></book></catalog>';

describe('xml.xpath', () => {
  it.each([
    ['/catalog/book[1]/title', 'Dune', 1],
    ['/catalog/book/title', '["Dune","Emma & co"]', 2],
    ['//book[2]/@id', 'b2', 1],
    ['count(//book)', '2', 1],
    ['boolean(//price)', 'true', 1],
    ['/catalog/book[1]/price/text()', '9.99', 1],
    ['/catalog/book[2]', '<book id="b2"><title>Emma &amp; co</title></book>', 1],
    ['/catalog/nothing', '[]', 0],
  ])('%s gives %s', async (expression, result, count) => {
    expect(await runStep('xml.xpath', { xml, xpath: expression })).toEqual({ result, count });
  });

  it.each([
    ['<!DOCTYPE a [<!ENTITY x "boom">]><a>&x;</a>', 'DOCTYPE is not accepted'],
    ['<a><b></a>', 'XML is not valid'],
    ['', 'XML is empty'],
  ])('refuses %j', async (document, message) => {
    await expect(runStep('xml.xpath', { xml: document, xpath: '/a' })).rejects.toMatchObject({ retryable: false, message: expect.stringContaining(message) });
  });

  it('reports a malformed expression', async () => {
    await expect(runStep('xml.xpath', { xml, xpath: '/catalog/[' })).rejects.toThrow(/XPath "\/catalog\/\[" is not valid/);
  });
});
