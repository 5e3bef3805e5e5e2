import type { ChoreoCase } from './choreo-case.ts';

const catalog = '<catalog><book id="b1"><title>Dune</title><price>9.99</price></book><book id="b2"><title>Émma</title></book></catalog>';
const family = 'XML';

export const cases: ChoreoCase[] = [
  { family, choreo: 'GetValuesFromXML', inputs: { XML: catalog, Node: 'title' }, outputs: { Result: '["Dune","Émma"]' } },
  {
    family,
    choreo: 'GetValuesFromXML',
    name: 'attribute values as CSV',
    inputs: { XML: catalog, Node: '@id', ResponseFormat: 'csv' },
    outputs: { Result: 'b1,b2' },
  },
  { family, choreo: 'GetValuesFromXML', name: 'malformed XML', inputs: { XML: '<catalog><book>', Node: 'book' }, error: /^values: XML is not valid: / },
  { family, choreo: 'RunXPathQuery', inputs: { XML: catalog, XPath: '//book[@id="b2"]/title' }, outputs: { Result: 'Émma', Count: '1' } },
  {
    family,
    choreo: 'RunXPathQuery',
    name: 'the first of several',
    inputs: { XML: catalog, XPath: '/catalog/book/title' },
    outputs: { Result: 'Dune', Count: '1' },
  },
  {
    family,
    choreo: 'RunXPathQuery',
    name: 'recursive mode, JSON',
    inputs: { XML: catalog, XPath: '/catalog/book/title', Mode: 'recursive', ResponseFormat: 'json' },
    outputs: { Result: '["Dune","Émma"]', Count: '2' },
  },
  {
    family,
    choreo: 'RunXPathQuery',
    name: 'recursive mode, CSV rows',
    inputs: { XML: catalog, XPath: '/catalog/book', Mode: 'recursive', ResponseFormat: 'csv' },
    outputs: { Result: 'id,title,price\nb1,Dune,9.99\nb2,Émma,', Count: '2' },
  },
  { family, choreo: 'RunXPathQuery', name: 'a computed value', inputs: { XML: catalog, XPath: 'count(//book)' }, outputs: { Result: '2', Count: '1' } },
  { family, choreo: 'RunXPathQuery', name: 'malformed XPath', inputs: { XML: catalog, XPath: '//book[' }, error: /^query: XPath "\/\/book\[" is not valid/ },
];
