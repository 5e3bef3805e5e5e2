import { z } from 'zod';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, type StepKind } from '@ces/language';
import { XML_NAME } from '@ces/formats';
import { booleanArg, text } from './arg-types.ts';

/** The conversion kinds: their work runs in `sandbox` (conversions.ts), where it can be stopped. */
export function createConversionSteps(sandbox: Sandbox): StepKind[] {
  return [
    defineStepKind({
      kind: 'conversion.xml-to-json',
      pure: true,
      description:
        'Converts the XML text `xml` to JSON: elements become properties, repeated elements arrays, attributes "@name", mixed text "#text"; all values stay strings. DOCTYPE is refused. Result: `{ json }`.',
      argsSchema: z.strictObject({ xml: text, pretty: booleanArg.default(false) }),
      example: { xml: '{{inputs.XML}}' },
      run: async (args, context) => ({ json: await sandbox.xmlToJson({ xml: args.xml, pretty: args.pretty }, context.signal) }),
    }),
    defineStepKind({
      kind: 'conversion.json-to-xml',
      pure: true,
      description:
        'Converts the JSON text `json` to XML, reading "@name" properties as attributes and "#text" as text. Without `rootElement` the JSON must be an object with exactly one property, the root. Result: `{ xml }`.',
      argsSchema: z.strictObject({
        json: text,
        rootElement: z.string().regex(XML_NAME, 'must be an XML element name').optional(),
        pretty: booleanArg.default(false),
      }),
      example: { json: '{{inputs.JSON}}', rootElement: 'root' },
      run: async (args, context) => ({
        xml: await sandbox.jsonToXml(
          { json: args.json, pretty: args.pretty, ...(args.rootElement !== undefined ? { rootElement: args.rootElement } : {}) },
          context.signal,
        ),
      }),
    }),
    defineStepKind({
      kind: 'conversion.csv-to-json',
      pure: true,
      description:
        'Parses the CSV text `csv` (RFC 4180 quoting; `delimiter` defaults to ","). With `header` (default true) each row becomes an object keyed by the first row, otherwise an array. Result: `{ json, rows }`.',
      argsSchema: z.strictObject({
        csv: text,
        delimiter: z.string().min(1).max(4).default(','),
        header: booleanArg.default(true),
        trim: booleanArg.default(false),
      }),
      example: { csv: '{{inputs.CSV}}', delimiter: ',', header: 'true' },
      run: async (args, context) => {
        const { result, count } = await sandbox.csvToJson({ csv: args.csv, delimiter: args.delimiter, header: args.header, trim: args.trim }, context.signal);
        return { json: result, rows: count };
      },
    }),
  ];
}
