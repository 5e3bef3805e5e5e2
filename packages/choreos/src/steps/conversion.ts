import { parse as parseCsv } from 'csv-parse/sync';
import { z } from 'zod';
import { parseJsonText } from '../json-query.ts';
import { InvalidStepInputError } from '../step-errors.ts';
import { defineStepKind } from '../step-kind.ts';
import type { StepKind } from '../step-kind.ts';
import { valueToXml, xmlToValue } from '../xml-safety.ts';
import { booleanArg, text } from './arg-types.ts';

const MAX_CSV_RECORDS = 100_000;
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
      const value = parseJsonText(args.json);
      const document = args.rootElement === undefined ? value : { [args.rootElement]: value };
      if (document === null || typeof document !== 'object' || Array.isArray(document) || Object.keys(document).length !== 1) {
        throw new InvalidStepInputError('JSON to convert must be an object with exactly one property (the root element), or give rootElement');
      }
      const badName = findBadElementName(document);
      if (badName !== undefined) throw new InvalidStepInputError(`"${badName}" cannot be an XML element or attribute name`);
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
      return { json: JSON.stringify(records), rows: records.length };
    },
  }),
];

function findBadElementName(value: unknown): string | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const bad = findBadElementName(item);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const name = key.startsWith('@') ? key.slice(1) : key;
    if (key !== '#text' && !XML_NAME.test(name)) return key;
    const bad = findBadElementName(item);
    if (bad !== undefined) return bad;
  }
  return undefined;
}
