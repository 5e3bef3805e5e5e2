import { expect } from 'vitest';
import type { CatalogueCase, CatalogueCaseContext } from './catalogue-case.ts';

const rowsetXml = '<rowset><row><name>Ann</name><city>Zürich</city></row><row><name>Bob &amp; co</name><qty>7</qty></row></rowset>';
const feedJson = {
  rss: {
    channel: {
      title: 'Café news',
      item: [
        { title: 'First', link: 'https://example.com/1' },
        { title: 'Second & last', link: 'https://example.com/2' },
      ],
    },
    '@version': '2.0',
  },
};
/** Base64 of a zip (an .xlsx workbook), whatever its content. */
const xlsBase64 = expect.stringMatching(/^UEsDB[A-Za-z0-9+/]+=*$/);

export function dataConversionCases({ base }: CatalogueCaseContext): CatalogueCase[] {
  return [
    { choreo: 'DataConversions/CSVToJSON', inputs: { CSV: 'a,b\n1,"x,y"\n' }, outputs: { JSON: '[{"a":"1","b":"x,y"}]', RowCount: '1' } },
    { choreo: 'DataConversions/CSVToJSON', name: 'an unclosed quote', inputs: { CSV: 'a,b\n"1,2\n' }, error: /^convert: CSV is not valid: / },
    { choreo: 'DataConversions/TSVToJSON', inputs: { TSV: 'name\tcity\nAnn\tZürich\n' }, outputs: { JSON: '[{"name":"Ann","city":"Zürich"}]', RowCount: '1' } },
    {
      choreo: 'DataConversions/CSVToXML',
      inputs: { CSV: 'name,home city\nAnn,"Zürich, CH"\n' },
      outputs: { XML: '<rowset><row><name>Ann</name><home_city>Zürich, CH</home_city></row></rowset>' },
    },
    { choreo: 'DataConversions/TSVToXML', inputs: { TSV: 'a\tb\n1\t<2>\n' }, outputs: { XML: '<rowset><row><a>1</a><b>&lt;2&gt;</b></row></rowset>' } },
    { choreo: 'DataConversions/XMLToCSV', inputs: { XML: rowsetXml }, outputs: { CSV: 'name,city,qty\nAnn,Zürich,\nBob & co,,7' } },
    {
      choreo: 'DataConversions/XMLToCSV',
      name: 'rows at a Path',
      inputs: { XML: '<books><book id="1"><title>Dune, 1965</title></book></books>', Path: '/books/book' },
      outputs: { CSV: 'id,title\n1,"Dune, 1965"' },
    },
    { choreo: 'DataConversions/XMLToCSV', name: 'malformed XML', inputs: { XML: '<rowset><row>' }, error: /^convert: XML is not valid: / },
    { choreo: 'DataConversions/XMLToTSV', inputs: { XML: rowsetXml }, outputs: { TSV: 'name\tcity\tqty\nAnn\tZürich\t\nBob & co\t\t7' } },
    { choreo: 'DataConversions/XMLToJSON', inputs: { XML: '<a x="1"><b>2</b></a>' }, outputs: { JSON: '{"a":{"b":"2","@x":"1"}}' } },
    { choreo: 'DataConversions/JSONToXML', inputs: { JSON: '{"name":"a&b","n":1}' }, outputs: { XML: '<root><name>a&amp;b</name><n>1</n></root>' } },
    { choreo: 'DataConversions/JSONToXML', name: 'malformed JSON', inputs: { JSON: '{"a":' }, error: /^convert: JSON is not valid: / },
    { choreo: 'DataConversions/CSVToXLS', inputs: { CSV: 'name,qty\nAnn,3\n' }, outputs: { XLS: xlsBase64 } },
    { choreo: 'DataConversions/CSVToXLS', name: 'no CSV', inputs: {}, error: /^convert: CSV is required$/ },
    { choreo: 'DataConversions/XMLToXLS', inputs: { XML: rowsetXml }, outputs: { XLS: xlsBase64 } },
    // Reading workbooks that succeed: the round trip test in catalogue-choreos.test.ts.
    { choreo: 'DataConversions/XLSToCSV', inputs: { XLS: '' }, error: /^convert: XLS is required$/ },
    {
      choreo: 'DataConversions/XLSToCSV',
      name: 'not a workbook',
      inputs: { XLS: Buffer.from('a,b\n').toString('base64') },
      error: /^convert: XLS is not an Excel workbook/,
    },
    { choreo: 'DataConversions/XLSToXML', inputs: { XLS: 'bm90IGEgd29ya2Jvb2s=' }, error: /^convert: XLS is not an Excel workbook/ },
    { choreo: 'DataConversions/RSSToJSON', inputs: { RSSFeed: `${base}/feed.rss` }, outputs: { Response: JSON.stringify(feedJson) } },
    {
      choreo: 'DataConversions/RSSToJSON',
      name: 'not a feed',
      inputs: { RSSFeed: `${base}/page.html` },
      error: /^convert: XML with a DOCTYPE is not accepted$/,
    },
    {
      choreo: 'DataConversions/RSSToJSON',
      name: 'a missing feed',
      inputs: { RSSFeed: `${base}/gone.rss` },
      error: /^convert: the feed's server answered with HTTP status 404$/,
    },
  ];
}
