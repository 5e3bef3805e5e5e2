import { createRequire } from 'node:module';
import type * as Xlsx from '@e965/xlsx';
import type { ChoreoCase } from './choreo-case.ts';

const xlsx = createRequire(import.meta.url)('@e965/xlsx') as typeof Xlsx;
const family = 'DataConversions';

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
/** Base64 of a zip (an .xlsx workbook). */
const xlsBase64 = /^UEsDB[A-Za-z0-9+/]+=*$/;

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

export const cases: ChoreoCase[] = [
  { family, choreo: 'CSVToJSON', inputs: { CSV: 'a,b\n1,"x,y"\n' }, outputs: { JSON: '[{"a":"1","b":"x,y"}]', RowCount: '1' } },
  { family, choreo: 'CSVToJSON', name: 'an unclosed quote', inputs: { CSV: 'a,b\n"1,2\n' }, error: /^convert: CSV is not valid: / },
  { family, choreo: 'TSVToJSON', inputs: { TSV: 'name\tcity\nAnn\tZürich\n' }, outputs: { JSON: '[{"name":"Ann","city":"Zürich"}]', RowCount: '1' } },
  {
    family,
    choreo: 'CSVToXML',
    inputs: { CSV: 'name,home city\nAnn,"Zürich, CH"\n' },
    outputs: { XML: '<rowset><row><name>Ann</name><home_city>Zürich, CH</home_city></row></rowset>' },
  },
  { family, choreo: 'TSVToXML', inputs: { TSV: 'a\tb\n1\t<2>\n' }, outputs: { XML: '<rowset><row><a>1</a><b>&lt;2&gt;</b></row></rowset>' } },
  { family, choreo: 'XMLToCSV', inputs: { XML: rowsetXml }, outputs: { CSV: 'name,city,qty\nAnn,Zürich,\nBob & co,,7' } },
  {
    family,
    choreo: 'XMLToCSV',
    name: 'rows at a Path',
    inputs: { XML: '<books><book id="1"><title>Dune, 1965</title></book></books>', Path: '/books/book' },
    outputs: { CSV: 'id,title\n1,"Dune, 1965"' },
  },
  { family, choreo: 'XMLToCSV', name: 'malformed XML', inputs: { XML: '<rowset><row>' }, error: /^convert: XML is not valid: / },
  { family, choreo: 'XMLToTSV', inputs: { XML: rowsetXml }, outputs: { TSV: 'name\tcity\tqty\nAnn\tZürich\t\nBob & co\t\t7' } },
  { family, choreo: 'XMLToJSON', inputs: { XML: '<a x="1"><b>2</b></a>' }, outputs: { JSON: '{"a":{"b":"2","@x":"1"}}' } },
  { family, choreo: 'JSONToXML', inputs: { JSON: '{"name":"a&b","n":1}' }, outputs: { XML: '<root><name>a&amp;b</name><n>1</n></root>' } },
  { family, choreo: 'JSONToXML', name: 'malformed JSON', inputs: { JSON: '{"a":' }, error: /^convert: JSON is not valid: / },
  {
    family,
    choreo: 'CSVToXLS',
    inputs: { CSV: 'name,qty\n"Zoë, Jr.",3\n' },
    outputs: { XLS: xlsBase64 },
    check: (outputs) => expectXls(outputs.XLS, sheetRows),
  },
  { family, choreo: 'CSVToXLS', name: 'no CSV', inputs: {}, error: /^convert: CSV is required$/ },
  {
    family,
    choreo: 'XMLToXLS',
    inputs: { XML: rowsetXml },
    outputs: { XLS: xlsBase64 },
    check: (outputs) =>
      expectXls(outputs.XLS, [
        ['name', 'city', 'qty'],
        ['Ann', 'Zürich', ''],
        ['Bob & co', '', 7],
      ]),
  },
  { family, choreo: 'XLSToCSV', inputs: { XLS: workbook(sheetRows, 'biff8') }, outputs: { CSV: 'name,qty\n"Zoë, Jr.",3' } },
  { family, choreo: 'XLSToCSV', name: 'an .xlsx workbook', inputs: { XLS: workbook(sheetRows, 'xlsx') }, outputs: { CSV: 'name,qty\n"Zoë, Jr.",3' } },
  { family, choreo: 'XLSToCSV', name: 'no XLS', inputs: { XLS: '' }, error: /^convert: XLS is required$/ },
  {
    family,
    choreo: 'XLSToCSV',
    name: 'not a workbook',
    inputs: { XLS: Buffer.from('a,b\n').toString('base64') },
    error: /^convert: XLS is not an Excel workbook/,
  },
  {
    family,
    choreo: 'XLSToXML',
    inputs: { XLS: workbook(sheetRows, 'biff8') },
    outputs: { XML: '<rowset><row><name>Zoë, Jr.</name><qty>3</qty></row></rowset>' },
  },
  { family, choreo: 'XLSToXML', name: 'not a workbook', inputs: { XLS: 'bm90IGEgd29ya2Jvb2s=' }, error: /^convert: XLS is not an Excel workbook/ },
  {
    family,
    choreo: 'RSSToJSON',
    inputs: {},
    contextInputs: ({ echoServerUrl }) => ({ RSSFeed: `${echoServerUrl}/feed.rss` }),
    outputs: { Response: JSON.stringify(feedJson) },
  },
  {
    family,
    choreo: 'RSSToJSON',
    name: 'an HTML page',
    inputs: {},
    contextInputs: ({ echoServerUrl }) => ({ RSSFeed: `${echoServerUrl}/page.html` }),
    error: /^convert: XML with a DOCTYPE is not accepted$/,
  },
  {
    family,
    choreo: 'RSSToJSON',
    name: 'JSON, not a feed',
    inputs: {},
    contextInputs: ({ echoServerUrl }) => ({ RSSFeed: `${echoServerUrl}/echo` }),
    error: /^convert: XML is not valid/,
  },
  {
    family,
    choreo: 'RSSToJSON',
    name: 'a missing feed',
    inputs: {},
    contextInputs: ({ echoServerUrl }) => ({ RSSFeed: `${echoServerUrl}/gone.rss` }),
    error: /^convert: the feed's server answered with HTTP status 404$/,
  },
];
