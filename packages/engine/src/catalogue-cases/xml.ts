import type { CatalogueCase } from './catalogue-case.ts';

const catalog = '<catalog><book id="b1"><title>Dune</title><price>9.99</price></book><book id="b2"><title>Émma</title></book></catalog>';

export function xmlCases(): CatalogueCase[] {
  return [
    { choreo: 'XML/GetValuesFromXML', inputs: { XML: catalog, Node: 'title' }, outputs: { Result: '["Dune","Émma"]' } },
    { choreo: 'XML/GetValuesFromXML', name: 'attributes as CSV', inputs: { XML: catalog, Node: '@id', ResponseFormat: 'csv' }, outputs: { Result: 'b1,b2' } },
    { choreo: 'XML/GetValuesFromXML', name: 'malformed XML', inputs: { XML: '<catalog><book>', Node: 'book' }, error: /^values: XML is not valid: / },
    { choreo: 'XML/RunXPathQuery', inputs: { XML: catalog, XPath: '//book[@id="b2"]/title' }, outputs: { Result: 'Émma', Count: '1' } },
    {
      choreo: 'XML/RunXPathQuery',
      name: 'recursive, as CSV rows',
      inputs: { XML: catalog, XPath: '/catalog/book', Mode: 'recursive', ResponseFormat: 'csv' },
      outputs: { Result: 'id,title,price\nb1,Dune,9.99\nb2,Émma,', Count: '2' },
    },
    {
      choreo: 'XML/RunXPathQuery',
      name: 'malformed XPath',
      inputs: { XML: catalog, XPath: '//book[' },
      error: /^query: XPath "\/\/book\[" is not valid/,
    },
  ];
}
