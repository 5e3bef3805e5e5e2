import { createRequire } from 'node:module';
import type * as Xlsx from '@e965/xlsx';
import type { SdkCase } from '../../support/sdk-case.ts';

const xlsx = createRequire(import.meta.url)('@e965/xlsx') as typeof Xlsx;

const rowsetXml = '<rowset><row><name>Ann</name><city>Zürich</city></row><row><name>Bob &amp; co</name><qty>7</qty></row></rowset>';

/** The Base64 of a one-sheet workbook in `bookType`, written independently of the service. */
function workbook(rows: unknown[][], bookType: 'biff8' | 'xlsx'): string {
  const book = xlsx.utils.book_new();
  xlsx.utils.book_append_sheet(book, xlsx.utils.aoa_to_sheet(rows), 'Sheet1');
  return xlsx.write(book, { type: 'base64', bookType }) as string;
}

/** Checks that `base64` is an .xlsx workbook whose first sheet holds `expected`. */
function expectXls(base64: string | undefined, expected: unknown[][]) {
  const bytes = Buffer.from(base64 ?? '', 'base64');
  if (!bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]))) throw new Error('XLS is not an .xlsx (zip) workbook');
  const book = xlsx.read(bytes, { type: 'buffer' });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  const cells = sheet === undefined ? [] : xlsx.utils.sheet_to_json(sheet, { header: 1, raw: true, defval: '' });
  if (JSON.stringify(cells) !== JSON.stringify(expected)) throw new Error(`XLS holds ${JSON.stringify(cells)}, not ${JSON.stringify(expected)}`);
}

const sheetRows = [
  ['name', 'qty'],
  ['Zoë, Jr.', 3],
];

export const cases: SdkCase[] = [
  { family: 'DataConversions', choreo: 'CSVToJSON', inputs: { CSV: 'a,b\n1,"x,y"\n' }, expect: { JSON: '[{"a":"1","b":"x,y"}]' } },
  { family: 'DataConversions', choreo: 'CSVToJSON', name: 'an unclosed quote', inputs: { CSV: 'a,b\n"1,2\n' }, error: /CSV is not valid/ },
  { family: 'DataConversions', choreo: 'TSVToJSON', inputs: { TSV: 'name\tcity\nAnn\tZürich\n' }, expect: { JSON: '[{"name":"Ann","city":"Zürich"}]' } },
  {
    family: 'DataConversions',
    choreo: 'CSVToXML',
    inputs: { CSV: 'name,home city\nAnn,"Zürich, CH"\n' },
    expect: { XML: '<rowset><row><name>Ann</name><home_city>Zürich, CH</home_city></row></rowset>' },
  },
  { family: 'DataConversions', choreo: 'TSVToXML', inputs: { TSV: 'a\tb\n1\t<2>\n' }, expect: { XML: '<rowset><row><a>1</a><b>&lt;2&gt;</b></row></rowset>' } },
  { family: 'DataConversions', choreo: 'XMLToCSV', inputs: { XML: rowsetXml }, expect: { CSV: 'name,city,qty\nAnn,Zürich,\nBob & co,,7' } },
  {
    family: 'DataConversions',
    choreo: 'XMLToCSV',
    name: 'rows at a Path',
    inputs: { XML: '<books><book id="1"><title>Dune, 1965</title></book></books>', Path: '/books/book' },
    expect: { CSV: 'id,title\n1,"Dune, 1965"' },
  },
  { family: 'DataConversions', choreo: 'XMLToCSV', name: 'malformed XML', inputs: { XML: '<rowset><row>' }, error: /XML is not valid/ },
  { family: 'DataConversions', choreo: 'XMLToTSV', inputs: { XML: rowsetXml }, expect: { TSV: 'name\tcity\tqty\nAnn\tZürich\t\nBob & co\t\t7' } },
  { family: 'DataConversions', choreo: 'XMLToJSON', inputs: { XML: '<a x="1"><b>2</b></a>' }, expect: { JSON: '{"a":{"b":"2","@x":"1"}}' } },
  { family: 'DataConversions', choreo: 'JSONToXML', inputs: { JSON: '{"name":"a&b","n":1}' }, expect: { XML: '<root><name>a&amp;b</name><n>1</n></root>' } },
  { family: 'DataConversions', choreo: 'JSONToXML', name: 'malformed JSON', inputs: { JSON: '{"a":' }, error: /JSON is not valid/ },
  { family: 'DataConversions', choreo: 'CSVToXLS', inputs: { CSV: 'name,qty\n"Zoë, Jr.",3\n' }, check: (outputs) => expectXls(outputs.XLS, sheetRows) },
  {
    family: 'DataConversions',
    choreo: 'XMLToXLS',
    inputs: { XML: rowsetXml },
    check: (outputs) =>
      expectXls(outputs.XLS, [
        ['name', 'city', 'qty'],
        ['Ann', 'Zürich', ''],
        ['Bob & co', '', 7],
      ]),
  },
  { family: 'DataConversions', choreo: 'XLSToCSV', inputs: { XLS: workbook(sheetRows, 'biff8') }, expect: { CSV: 'name,qty\n"Zoë, Jr.",3' } },
  {
    family: 'DataConversions',
    choreo: 'XLSToCSV',
    name: 'an .xlsx workbook',
    inputs: { XLS: workbook(sheetRows, 'xlsx') },
    expect: { CSV: 'name,qty\n"Zoë, Jr.",3' },
  },
  {
    family: 'DataConversions',
    choreo: 'XLSToCSV',
    name: 'not a workbook',
    inputs: { XLS: Buffer.from('a,b\n').toString('base64') },
    error: /not an Excel workbook/,
  },
  {
    family: 'DataConversions',
    choreo: 'XLSToXML',
    inputs: { XLS: workbook(sheetRows, 'biff8') },
    expect: { XML: '<rowset><row><name>Zoë, Jr.</name><qty>3</qty></row></rowset>' },
  },
  {
    family: 'DataConversions',
    choreo: 'RSSToJSON',
    inputs: {},
    contextInputs: (context) => ({ RSSFeed: `${context.echoServerUrl}/feed.rss` }),
    expect: {
      Response:
        '{"rss":{"channel":{"title":"Café news","item":[{"title":"First","link":"https://example.com/1"},{"title":"Second & last","link":"https://example.com/2"}]},"@version":"2.0"}}',
    },
  },
  {
    family: 'DataConversions',
    choreo: 'RSSToJSON',
    name: 'not a feed',
    inputs: {},
    contextInputs: (context) => ({ RSSFeed: `${context.echoServerUrl}/echo` }),
    error: /XML is not valid/,
  },
];
