import { feedToJson } from './feed.ts';
import { delimitedToXls, delimitedToXml, xlsToCsv, xlsToXml, xmlToDelimited, xmlToXls } from './table-conversions.ts';
import { getValuesFromXml, runXPathQuery } from './xml-values.ts';

/**
 * The original Utilities' data operations that run in the step sandbox (sandbox.ts): parsing
 * and writing tenants' XML, CSV, TSV and spreadsheets is linear but takes seconds on megabytes,
 * and XPath can cost what the expression makes it cost.
 */
export const DATA_OPERATIONS = {
  'xml-get-values': getValuesFromXml,
  'xml-run-xpath': runXPathQuery,
  'delimited-to-xml': delimitedToXml,
  'xml-to-delimited': xmlToDelimited,
  'delimited-to-xls': delimitedToXls,
  'xml-to-xls': xmlToXls,
  'xls-to-csv': xlsToCsv,
  'xls-to-xml': xlsToXml,
  'feed-to-json': feedToJson,
};

export type DataOperation = keyof typeof DATA_OPERATIONS;
export type DataRequest<Name extends DataOperation> = Parameters<(typeof DATA_OPERATIONS)[Name]>[0];
export type DataResult<Name extends DataOperation> = ReturnType<(typeof DATA_OPERATIONS)[Name]>;

/** What a failure says the operation was doing ("… ran longer than 15000 ms"). */
export const DATA_OPERATION_DESCRIPTIONS: Record<DataOperation, string> = {
  'xml-get-values': 'reading the XML values',
  'xml-run-xpath': 'the XPath query',
  'delimited-to-xml': 'converting the table to XML',
  'xml-to-delimited': 'converting the XML to a table',
  'delimited-to-xls': 'writing the workbook',
  'xml-to-xls': 'writing the workbook',
  'xls-to-csv': 'reading the workbook',
  'xls-to-xml': 'reading the workbook',
  'feed-to-json': 'converting the feed',
};
