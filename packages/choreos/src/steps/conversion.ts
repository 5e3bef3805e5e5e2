import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import { MAX_JSON_DEPTH, parseJsonText } from '../json-query.ts';
import { InvalidStepInputError } from '../step-errors.ts';
import { defineStepKind } from '../step-kind.ts';
import type { StepKind } from '../step-kind.ts';
import { valueToXml, xmlToValue } from '../xml-safety.ts';
import { booleanArg, text } from './arg-types.ts';

const MAX_CSV_RECORDS = 100_000;
/**
 * Longest JSON a CSV may become: the engine refuses a longer result anyway, but only once it has
 * been written, and a long header repeated on every row multiplies the text (5 KB of header over
 * 100,000 rows is half a billion characters, and seconds of the worker's own thread).
 */
const MAX_CSV_JSON_LENGTH = 16 * 1024 * 1024;
const XML_NAME = /^[A-Za-z_][A-Za-z0-9._-]*$/;

export const conversionSteps: readonly StepKind[] = [
  defineStepKind({
    kind: 'conversion.xml-to-json',
    instant: true,
    description:
      'Converts the XML text `xml` to JSON: elements become properties, repeated elements arrays, attributes "@name", mixed text "#text"; all values stay strings. DOCTYPE is refused. Result: `{ json }`.',
    argsSchema: z.strictObject({ xml: text, pretty: booleanArg.default(false) }),
    example: { xml: '{{inputs.XML}}' },
    run: async (args) => ({ json: JSON.stringify(xmlToValue(args.xml), null, args.pretty ? 2 : undefined) }),
  }),
  defineStepKind({
    kind: 'conversion.json-to-xml',
    instant: true,
    description:
      'Converts the JSON text `json` to XML, reading "@name" properties as attributes and "#text" as text. Without `rootElement` the JSON must be an object with exactly one property, the root. Result: `{ xml }`.',
    argsSchema: z.strictObject({
      json: text,
      rootElement: z.string().regex(XML_NAME, 'must be an XML element name').optional(),
      pretty: booleanArg.default(false),
    }),
    example: { json: '{{inputs.JSON}}', rootElement: 'root' },
    run: async (args) => {
      const value = parseJsonText(args.json, 'JSON', { maxDepth: MAX_JSON_DEPTH });
      const document = args.rootElement === undefined ? value : { [args.rootElement]: value };
      if (document === null || typeof document !== 'object' || Array.isArray(document) || Object.keys(document).length !== 1) {
        throw new InvalidStepInputError('JSON to convert must be an object with exactly one property (the root element), or give rootElement');
      }
      const problem = xmlShapeProblem(document);
      if (problem !== undefined) throw new InvalidStepInputError(problem);
      return { xml: valueToXml(document, args.pretty) };
    },
  }),
  defineStepKind({
    kind: 'conversion.csv-to-json',
    instant: true,
    description:
      'Parses the CSV text `csv` (RFC 4180 quoting; `delimiter` defaults to ","). With `header` (default true) each row becomes an object keyed by the first row, otherwise an array. Result: `{ json, rows }`.',
    argsSchema: z.strictObject({
      csv: text,
      delimiter: z.string().min(1).max(4).default(','),
      header: booleanArg.default(true),
      trim: booleanArg.default(false),
    }),
    example: { csv: '{{inputs.CSV}}', delimiter: ',', header: 'true' },
    run: async (args) => {
      let records: unknown[];
      try {
        records = parseCsv(args.csv, {
          columns: args.header,
          delimiter: args.delimiter,
          trim: args.trim,
          skip_empty_lines: true,
          bom: true,
          to: MAX_CSV_RECORDS + 1,
        }) as unknown[];
      } catch (error) {
        throw new InvalidStepInputError(`CSV is not valid: ${(error as Error).message}`);
      }
      if (records.length > MAX_CSV_RECORDS) throw new InvalidStepInputError(`CSV has more than ${MAX_CSV_RECORDS} rows`);
      if (csvJsonLength(records) > MAX_CSV_JSON_LENGTH) {
        throw new InvalidStepInputError(`CSV as JSON would be longer than ${MAX_CSV_JSON_LENGTH} characters`);
      }
      return { json: JSON.stringify(records), rows: records.length };
    },
  }),
];

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

/** The length of `JSON.stringify(records)`, escapes aside, found without writing it. */
function csvJsonLength(records: unknown[]): number {
  let length = 2;
  for (const record of records) {
    length += 3;
    for (const [key, value] of Array.isArray(record) ? record.map((item) => ['', item] as const) : Object.entries(record as object)) {
      length += key.length + (Array.isArray(record) ? 0 : 3) + String(value).length + 3;
    }
    if (length > MAX_CSV_JSON_LENGTH) return length;
  }
  return length;
}
