import { readDelimited, writeDelimited } from './delimited-text.ts';
import { InvalidStepInputError } from '@ces/language';
import { rowsToXls, xlsToRows } from './workbook.ts';
import { tableFromXml, tableToXml } from './xml-table.ts';

/**
 * The original Utilities' table conversions between CSV, TSV, the `<rowset><row>` XML and Excel:
 * the first CSV/TSV row and the first sheet row name the columns.
 */

export interface DelimitedRequest {
  text: string;
  /** "," or a tab. */
  delimiter: string;
  /** What the text is called in messages: CSV, TSV. */
  what: string;
}

export interface XmlRowsRequest {
  xml: string;
  /** XPath to the rows; empty: /rowset/row. */
  path: string;
}

export function delimitedToXml(request: DelimitedRequest): string {
  const [header = [], ...rows] = readDelimited(request.text, request.delimiter, request.what);
  return tableToXml(header, rows);
}

export function xmlToDelimited(request: XmlRowsRequest & { delimiter: string }): string {
  const table = tableFromXml(request.xml, request.path);
  return table.columns.length === 0 ? '' : writeDelimited([table.columns, ...table.rows], request.delimiter);
}

export function delimitedToXls(request: DelimitedRequest): string {
  if (request.text.trim() === '') throw new InvalidStepInputError(`${request.what} is empty`);
  return rowsToXls(readDelimited(request.text, request.delimiter, request.what));
}

export function xmlToXls(request: XmlRowsRequest): string {
  const table = tableFromXml(request.xml, request.path);
  return rowsToXls(table.columns.length === 0 ? [] : [table.columns, ...table.rows]);
}

export function xlsToCsv(request: { xls: string }): string {
  return writeDelimited(xlsToRows(request.xls), ',');
}

export function xlsToXml(request: { xls: string }): string {
  const [header = [], ...rows] = xlsToRows(request.xls);
  return tableToXml(header, rows);
}
