import { createRequire } from 'node:module';
import type * as Xlsx from '@e965/xlsx';
import { describe, expect, it } from 'vitest';
import { runStep } from './run-step-for-test.ts';

const xlsx = createRequire(import.meta.url)('@e965/xlsx') as typeof Xlsx;

/** Reads a workbook back independently of the conversion steps: its format and first sheet's cells. */
function readBack(base64: string): { parts: string[]; cells: unknown[][] } {
  const bytes = Buffer.from(base64, 'base64');
  // An .xlsx file is a zip whose xl/workbook.xml and xl/worksheets/ hold the workbook.
  const parts = xlsx.CFB.read(bytes, { type: 'buffer' }).FullPaths;
  const book = xlsx.read(bytes, { type: 'buffer' });
  const sheet = book.Sheets[book.SheetNames[0] ?? ''];
  return { parts, cells: sheet === undefined ? [] : xlsx.utils.sheet_to_json(sheet, { header: 1, raw: true }) };
}

function workbook(rows: unknown[][], bookType: 'xlsx' | 'biff8'): string {
  const book = xlsx.utils.book_new();
  xlsx.utils.book_append_sheet(book, xlsx.utils.aoa_to_sheet(rows), 'Data');
  return xlsx.write(book, { type: 'base64', bookType }) as string;
}

const rowsetXml = '<rowset><row><name>Ann</name><city>Zürich</city></row><row><name>Bob &amp; co</name><age>7</age></row></rowset>';

describe('conversion.table-to-xml', () => {
  it('writes CSV rows as rowset XML, headings made element names, text escaped', async () => {
    expect(await runStep('conversion.table-to-xml', { text: 'First Name,2nd,city\nAnn,"x, y",Zürich\n"<b>&",,\n', format: 'csv' })).toEqual({
      xml: '<rowset><row><First_Name>Ann</First_Name><_2nd>x, y</_2nd><city>Zürich</city></row><row><First_Name>&lt;b&gt;&amp;</First_Name><_2nd/><city/></row></rowset>',
    });
  });

  it('reads TSV, repeated and empty headings included', async () => {
    expect(await runStep('conversion.table-to-xml', { text: 'a\ta\t\n1\t2\t3', format: 'tsv' })).toEqual({
      xml: '<rowset><row><a>1</a><a_2>2</a_2><column3>3</column3></row></rowset>',
    });
  });

  it('gives an empty rowset for empty input, and refuses malformed CSV clearly', async () => {
    expect(await runStep('conversion.table-to-xml', { text: '', format: '' })).toEqual({ xml: '<rowset></rowset>' });
    await expect(runStep('conversion.table-to-xml', { text: 'a,b\n"open,1', format: 'csv' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/^CSV is not valid: /),
    });
  });

  it('converts a megabyte table within the limits', async () => {
    const line = 'é'.repeat(50);
    const csv = `h1,h2\n${`${line},${line}\n`.repeat(10_000)}`;
    const { xml } = (await runStep('conversion.table-to-xml', { text: csv, format: 'csv' })) as { xml: string };
    expect(xml.split('<row>').length - 1).toBe(10_000);
  });
});

describe('conversion.xml-to-table', () => {
  it('writes /rowset/row as CSV, columns in the order met', async () => {
    expect(await runStep('conversion.xml-to-table', { xml: rowsetXml, path: '', format: 'csv' })).toEqual({ text: 'name,city,age\nAnn,Zürich,\nBob & co,,7' });
  });

  it('follows a Path, reads attributes, writes TSV', async () => {
    const xml = '<catalog><book id="1"><title>Dune\tII</title></book><book id="2"><title>Emma</title></book></catalog>';
    expect(await runStep('conversion.xml-to-table', { xml, path: '/catalog/book', format: 'tsv' })).toEqual({ text: 'id\ttitle\n1\t"Dune\tII"\n2\tEmma' });
  });

  it('reads a simple path as the XPath engine does', async () => {
    const xml =
      '<?xml version="1.0"?>\n<rowset>\n  <row id="1">\n    <a> spaced &amp; &#233; </a>\n    <b><![CDATA[<raw>]]></b>\n    <a>second</a>\n  </row>\n  <row><c/></row>\n  <other/>\n</rowset>';
    const simple = await runStep('conversion.xml-to-table', { xml, path: '/rowset/row', format: 'csv' });
    expect(simple).toEqual({ text: 'id,a,b,c\n1," spaced & é ",<raw>,\n,,,' });
    // "//" is not a simple path: the XPath engine reads it.
    expect(await runStep('conversion.xml-to-table', { xml, path: '//rowset/row', format: 'csv' })).toEqual(simple);
    const nested = '<rowset><row><a><b>1</b></a></row></rowset>';
    expect(await runStep('conversion.xml-to-table', { xml: nested, format: 'csv' })).toEqual({ text: 'a\n<a><b>1</b></a>' });
  });

  it('converts a table of several megabytes within the limits', async () => {
    const xml = `<rowset>${'<row><name>Zoë</name><qty>1</qty><note>n</note></row>'.repeat(80_000)}</rowset>`;
    expect(xml.length).toBeGreaterThan(4_000_000);
    const { text } = (await runStep('conversion.xml-to-table', { xml, format: 'csv' })) as { text: string };
    expect(text.split('\n')).toHaveLength(80_001);
  });

  it('gives nothing for no rows, and refuses a path that selects a value or is malformed', async () => {
    expect(await runStep('conversion.xml-to-table', { xml: '<rowset/>', format: 'csv' })).toEqual({ text: '' });
    await expect(runStep('conversion.xml-to-table', { xml: rowsetXml, path: 'count(//row)' })).rejects.toThrow(/selects a value, not rows/);
    await expect(runStep('conversion.xml-to-table', { xml: rowsetXml, path: '//row[' })).rejects.toThrow(/is not valid/);
    await expect(runStep('conversion.xml-to-table', { xml: '<rowset><row>', path: '' })).rejects.toThrow(/XML is not valid/);
  });
});

describe('conversion.table-to-xls and conversion.xml-to-xls', () => {
  it('write an Excel workbook, numbers as numbers, Unicode kept', async () => {
    const { xls } = (await runStep('conversion.table-to-xls', { text: 'name,qty,code\nZürich 日本,12.5,007\n', format: 'csv' })) as { xls: string };
    expect(Buffer.from(xls, 'base64').subarray(0, 4).toString('hex')).toBe('504b0304');
    const { parts, cells } = readBack(xls);
    expect(parts).toEqual(expect.arrayContaining(['Root Entry/xl/workbook.xml', 'Root Entry/xl/worksheets/sheet1.xml', 'Root Entry/[Content_Types].xml']));
    expect(cells).toEqual([
      ['name', 'qty', 'code'],
      ['Zürich 日本', 12.5, '007'],
    ]);
  });

  it('write XML rows with a header row', async () => {
    const { xls } = (await runStep('conversion.xml-to-xls', { xml: rowsetXml })) as { xls: string };
    expect(readBack(xls).cells).toEqual([
      ['name', 'city', 'age'],
      ['Ann', 'Zürich'],
      ['Bob & co', undefined, 7],
    ]);
  });

  it('refuse malformed CSV and XML clearly, and write an empty sheet for XML without rows', async () => {
    await expect(runStep('conversion.table-to-xls', { text: 'a,b\n"open' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/^CSV is not valid: /),
    });
    await expect(runStep('conversion.xml-to-xls', { xml: '<rowset><row>' })).rejects.toMatchObject({
      retryable: false,
      message: expect.stringMatching(/^XML is not valid: /),
    });
    const { xls } = (await runStep('conversion.xml-to-xls', { xml: '<rowset/>' })) as { xls: string };
    expect(readBack(xls).cells).toEqual([]);
  });

  it('refuse what Excel cannot hold, an empty CSV, and a VaultFile', async () => {
    const wide = `${Array.from({ length: 16_385 }, (_, index) => `c${index}`).join(',')}\n`;
    await expect(runStep('conversion.table-to-xls', { text: wide })).rejects.toThrow(/at most 16384 columns, not 16385/);
    await expect(runStep('conversion.table-to-xls', { text: `a,"${'x'.repeat(40_000)}"` })).rejects.toThrow(/at most 32767 characters/);
    await expect(runStep('conversion.table-to-xls', { text: ' ' })).rejects.toThrow(/CSV is required/);
    await expect(runStep('conversion.table-to-xls', { text: 'a', vaultFile: 'files/a.csv' })).rejects.toThrow(/VaultFile is not supported/);
  });
});

describe('conversion.xls-to-csv and conversion.xls-to-xml', () => {
  it.each(['biff8', 'xlsx'] as const)('read the first sheet of a %s workbook', async (bookType) => {
    const xls = workbook([['name', 'qty', 'note'], ['Ann, Jr.', 3, 'é "quoted"'], [], ['Bob', 4.25, true]], bookType);
    expect(await runStep('conversion.xls-to-csv', { xls })).toEqual({ csv: 'name,qty,note\n"Ann, Jr.",3,"é ""quoted"""\nBob,4.25,TRUE' });
    expect(await runStep('conversion.xls-to-xml', { xls })).toEqual({
      xml: '<rowset><row><name>Ann, Jr.</name><qty>3</qty><note>é "quoted"</note></row><row><name>Bob</name><qty>4.25</qty><note>TRUE</note></row></rowset>',
    });
  });

  it('reads a large Excel 97-2003 workbook', async () => {
    const rows = [['id', 'name'], ...Array.from({ length: 5000 }, (_, index) => [index, `Zoë ${index}`])];
    const { csv } = (await runStep('conversion.xls-to-csv', { xls: workbook(rows, 'biff8') })) as { csv: string };
    expect(csv.split('\n')).toHaveLength(5001);
    expect(csv.endsWith('\n4999,Zoë 4999')).toBe(true);
  });

  it('round-trips a table of tens of thousands of rows within the limits', async () => {
    const csv = ['id,name,amount', ...Array.from({ length: 30_000 }, (_, index) => `${index},Zoë ${index},${index}.5`)].join('\n');
    const { xls } = (await runStep('conversion.table-to-xls', { text: csv })) as { xls: string };
    expect(await runStep('conversion.xls-to-csv', { xls })).toEqual({ csv });
  });

  it('reads back what table-to-xls wrote', async () => {
    const { xls } = (await runStep('conversion.table-to-xls', { text: 'a,b\n1,x\n' })) as { xls: string };
    expect(await runStep('conversion.xls-to-csv', { xls })).toEqual({ csv: 'a,b\n1,x' });
  });

  it.each([
    ['', /XLS is required/],
    ['not base64!', /XLS is not valid Base64/],
    [Buffer.from('a,b\n1,2\n').toString('base64'), /not an Excel workbook/],
    [
      Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(600, 7)]).toString('base64'),
      /XLS is not a workbook that can be read/,
    ],
    [Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(100, 1)]).toString('base64'), /XLS is not a workbook that can be read/],
  ])('refuses %#: a clear error, never a crash', async (xls, message) => {
    await expect(runStep('conversion.xls-to-csv', { xls })).rejects.toMatchObject({ retryable: false, message: expect.stringMatching(message) });
    await expect(runStep('conversion.xls-to-xml', { xls })).rejects.toMatchObject({ retryable: false, message: expect.stringMatching(message) });
  });

  it('reads an empty workbook as nothing', async () => {
    const xls = workbook([], 'xlsx');
    expect(await runStep('conversion.xls-to-csv', { xls })).toEqual({ csv: '' });
    expect(await runStep('conversion.xls-to-xml', { xls })).toEqual({ xml: '<rowset></rowset>' });
  });
});

describe('conversion.feed-to-json', () => {
  it('converts RSS 2.0, items as an array', async () => {
    const xml =
      '<?xml version="1.0"?><rss version="2.0"><channel><title>Café</title><item><title>A</title></item><item><title>B &amp; C</title></item></channel></rss>';
    expect(JSON.parse(((await runStep('conversion.feed-to-json', { xml, status: '200' })) as { json: string }).json)).toEqual({
      rss: { '@version': '2.0', channel: { title: 'Café', item: [{ title: 'A' }, { title: 'B & C' }] } },
    });
  });

  it('reads Atom, and RSS 0.91 with its public DOCTYPE', async () => {
    const atom = '<feed xmlns="http://www.w3.org/2005/Atom"><title>T</title><entry><title>E</title></entry></feed>';
    expect(await runStep('conversion.feed-to-json', { xml: atom })).toEqual({
      json: '{"feed":{"title":"T","entry":{"title":"E"},"@xmlns":"http://www.w3.org/2005/Atom"}}',
    });
    const old =
      '<?xml version="1.0"?>\n<!DOCTYPE rss PUBLIC "-//Netscape Communications//DTD RSS 0.91//EN" "http://my.netscape.com/publish/formats/rss-0.91.dtd">\n<rss version="0.91"><channel><title>Old</title></channel></rss>';
    expect(await runStep('conversion.feed-to-json', { xml: old })).toEqual({ json: '{"rss":{"channel":{"title":"Old"},"@version":"0.91"}}' });
  });

  it('converts a feed of thousands of items', async () => {
    const xml = `<rss version="2.0"><channel><title>Big</title>${'<item><title>Zoë &amp; co</title><link>https://example.com/</link></item>'.repeat(20_000)}</channel></rss>`;
    const { json } = (await runStep('conversion.feed-to-json', { xml, status: '200' })) as { json: string };
    expect(JSON.parse(json).rss.channel.item).toHaveLength(20_000);
  });

  it.each([
    ['', '200', /XML is empty/],
    ['<html><body>hi</body></html>', '200', /not an RSS or Atom feed \(its root element is <html>\)/],
    ['<rss><channel>', '200', /XML is not valid/],
    ['<!DOCTYPE rss [<!ENTITY x "y">]><rss/>', '200', /DOCTYPE/],
    ['no such feed', '404', /HTTP status 404/],
  ])('refuses %j', async (xml, status, message) => {
    await expect(runStep('conversion.feed-to-json', { xml, status })).rejects.toMatchObject({ retryable: false, message: expect.stringMatching(message) });
  });
});
