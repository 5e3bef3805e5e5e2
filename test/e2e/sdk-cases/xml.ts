import type { SdkCase } from '../../support/sdk-case.ts';

const catalog = '<catalog><book id="b1"><title>Dune</title><price>9.99</price></book><book id="b2"><title>Émma</title></book></catalog>';

export const cases: SdkCase[] = [
  { family: 'XML', choreo: 'GetValuesFromXML', inputs: { XML: catalog, Node: 'title' }, expect: { Result: '["Dune","Émma"]' } },
  {
    family: 'XML',
    choreo: 'GetValuesFromXML',
    name: 'attribute values as CSV',
    inputs: { XML: catalog, Node: '@id', ResponseFormat: 'csv' },
    expect: { Result: 'b1,b2' },
  },
  { family: 'XML', choreo: 'GetValuesFromXML', name: 'malformed XML', inputs: { XML: '<catalog>', Node: 'title' }, error: /XML is not valid/ },
  { family: 'XML', choreo: 'RunXPathQuery', inputs: { XML: catalog, XPath: '/catalog/book/title' }, expect: { Result: 'Dune' } },
  {
    family: 'XML',
    choreo: 'RunXPathQuery',
    name: 'recursive mode, JSON',
    inputs: { XML: catalog, XPath: '/catalog/book/title', Mode: 'recursive', ResponseFormat: 'json' },
    expect: { Result: '["Dune","Émma"]' },
  },
  {
    family: 'XML',
    choreo: 'RunXPathQuery',
    name: 'recursive mode, CSV rows',
    inputs: { XML: catalog, XPath: '/catalog/book', Mode: 'recursive', ResponseFormat: 'csv' },
    expect: { Result: 'id,title,price\nb1,Dune,9.99\nb2,Émma,' },
  },
  { family: 'XML', choreo: 'RunXPathQuery', name: 'a computed value', inputs: { XML: catalog, XPath: 'count(//book)' }, expect: { Result: '2' } },
];
