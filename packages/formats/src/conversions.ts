import type * as CsvParse from 'csv-parse/sync';
import { libraryOnFirstUse } from './library-on-first-use.ts';
import { InvalidStepInputError, jsonLength } from '@ces/language';
import { MAX_JSON_DEPTH, parseJsonText } from './json-query.ts';
import { valueToXml, xmlToValue } from './xml-safety.ts';

const csvParse = libraryOnFirstUse<typeof CsvParse>('csv-parse/sync');

/**
 * The conversion steps' work, pure functions of tenant input: they run in sandbox processes, since
 * megabytes of XML or CSV take seconds, which on a worker's own thread would hold every other run
 * and let job locks lapse (the step's timeout cannot stop synchronous work).
 */

const MAX_CSV_RECORDS = 100_000;
/**
 * Longest JSON a CSV may become: the engine refuses a longer result anyway, but only once it has
 * been written, and a long header repeated on every row multiplies the text (5 KB of header over
 * 100,000 rows is half a billion characters).
 */
const MAX_CSV_JSON_LENGTH = 16 * 1024 * 1024;
export const XML_NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;

export interface XmlToJsonRequest {
  xml: string;
  pretty: boolean;
}

export interface JsonToXmlRequest {
  json: string;
  rootElement?: string;
  pretty: boolean;
}

export interface CsvToJsonRequest {
  csv: string;
  delimiter: string;
  header: boolean;
  trim: boolean;
}

export function xmlToJson(request: XmlToJsonRequest): string {
  return JSON.stringify(xmlToValue(request.xml), null, request.pretty ? 2 : undefined);
}

export function jsonToXml(request: JsonToXmlRequest): string {
  const value = parseJsonText(request.json, 'JSON', { maxDepth: MAX_JSON_DEPTH });
  const document = request.rootElement === undefined ? value : { [request.rootElement]: value };
  if (document === null || typeof document !== 'object' || Array.isArray(document) || Object.keys(document).length !== 1) {
    throw new InvalidStepInputError('JSON to convert must be an object with exactly one property (the root element), or give rootElement');
  }
  const problem = xmlShapeProblem(document);
  if (problem !== undefined) throw new InvalidStepInputError(problem);
  return valueToXml(document, request.pretty);
}

/** The JSON text, and how many rows it has. */
export function csvToJson(request: CsvToJsonRequest): { result: string; count: number } {
  let records: unknown[];
  try {
    records = csvParse().parse(request.csv, {
      columns: request.header,
      delimiter: request.delimiter,
      trim: request.trim,
      skip_empty_lines: true,
      bom: true,
      to: MAX_CSV_RECORDS + 1,
    }) as unknown[];
  } catch (error) {
    throw new InvalidStepInputError(`CSV is not valid: ${(error as Error).message}`);
  }
  if (records.length > MAX_CSV_RECORDS) throw new InvalidStepInputError(`CSV has more than ${MAX_CSV_RECORDS} rows`);
  if (jsonLength(records, MAX_CSV_JSON_LENGTH) > MAX_CSV_JSON_LENGTH) {
    throw new InvalidStepInputError(`CSV as JSON would be longer than ${MAX_CSV_JSON_LENGTH} characters`);
  }
  return { result: JSON.stringify(records), count: records.length };
}

/**
 * What the XML builder would write wrongly or not at all: names that are not XML names, an array
 * directly inside an array (it has no element name), an attribute that is not a scalar.
 */
function xmlShapeProblem(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (next === null || typeof next !== 'object') continue;
    if (Array.isArray(next)) {
      for (const item of next) {
        if (Array.isArray(item)) return 'an array directly inside an array cannot be written as XML';
        pending.push(item);
      }
      continue;
    }
    for (const [key, item] of Object.entries(next)) {
      const attribute = key.startsWith('@');
      if (key !== '#text' && !XML_NAME.test(attribute ? key.slice(1) : key)) return `"${key}" cannot be an XML element or attribute name`;
      if (attribute && item !== null && typeof item === 'object') return `attribute "${key}" must be a string, number or boolean`;
      pending.push(item);
    }
  }
  return undefined;
}
