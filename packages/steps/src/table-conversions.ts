import { z } from 'zod';
import type { Sandbox } from '@ces/sandbox';
import { defineStepKind, InvalidStepInputError, type StepKind } from '@ces/language';
import { text } from './arg-types.ts';
import { choiceArg } from './lenient-args.ts';

/** The original Utilities' table conversions; they run in `sandbox`, where they can be stopped. */

const tableFormat = choiceArg(['csv', 'tsv'], 'csv');
const DELIMITERS = { csv: ',', tsv: '\t' } as const;
const rowPath = z.string().max(10_000).default('');
/** The original's Vault (files stored with the account) does not exist here. */
const vaultFile = z
  .string()
  .max(1000)
  .default('')
  .refine((value) => value.trim() === '', 'VaultFile is not supported: give the data itself');

function required(value: string, what: string): string {
  if (value.trim() === '') throw new InvalidStepInputError(`${what} is required`);
  return value;
}

export function createTableConversionSteps(sandbox: Sandbox): StepKind[] {
  return [
    defineStepKind({
      kind: 'conversion.table-to-xml',
      pure: true,
      description:
        'Converts the CSV or TSV (`format`, default csv) text `text`, whose first row names the columns, to `<rowset><row><Column>value</Column>…</row></rowset>` (names made XML names). Result: `{ xml }`.',
      argsSchema: z.strictObject({ text, format: tableFormat }),
      example: { text: '{{inputs.CSV}}', format: 'csv' },
      run: async (args, context) => ({
        xml: await sandbox.runData(
          'delimited-to-xml',
          { text: args.text, delimiter: DELIMITERS[args.format], what: args.format.toUpperCase() },
          context.signal,
        ),
      }),
    }),
    defineStepKind({
      kind: 'conversion.xml-to-table',
      pure: true,
      description:
        'Converts the rows that the XPath `path` (default /rowset/row) selects in `xml` to CSV or TSV (`format`): a header of the attribute and child element names met, then a line per row. Result: `{ text }`.',
      argsSchema: z.strictObject({ xml: text, path: rowPath, format: tableFormat }),
      example: { xml: '{{inputs.XML}}', path: '{{inputs.Path}}', format: 'csv' },
      run: async (args, context) => ({
        text: await sandbox.runData('xml-to-delimited', { xml: args.xml, path: args.path, delimiter: DELIMITERS[args.format] }, context.signal),
      }),
    }),
    defineStepKind({
      kind: 'conversion.table-to-xls',
      pure: true,
      description:
        'Writes the CSV or TSV (`format`) text `text` as an Excel workbook (.xlsx, one sheet, Sheet1; numbers as numbers), Base64-encoded. Result: `{ xls }`.',
      argsSchema: z.strictObject({ text, format: tableFormat, vaultFile }),
      example: { text: '{{inputs.CSV}}', format: 'csv' },
      run: async (args, context) => ({
        xls: await sandbox.runData(
          'delimited-to-xls',
          { text: required(args.text, args.format.toUpperCase()), delimiter: DELIMITERS[args.format], what: args.format.toUpperCase() },
          context.signal,
        ),
      }),
    }),
    defineStepKind({
      kind: 'conversion.xml-to-xls',
      pure: true,
      description:
        'Writes the rows that `path` (default /rowset/row) selects in `xml` as an Excel workbook (.xlsx): a header row of the column names, then the rows. Base64-encoded. Result: `{ xls }`.',
      argsSchema: z.strictObject({ xml: text, path: rowPath }),
      example: { xml: '{{inputs.XML}}' },
      run: async (args, context) => ({ xls: await sandbox.runData('xml-to-xls', { xml: args.xml, path: args.path }, context.signal) }),
    }),
    defineStepKind({
      kind: 'conversion.xls-to-csv',
      pure: true,
      description:
        'Reads the first sheet of the Excel workbook (.xls or .xlsx) whose Base64 is `xls` and writes it as CSV, cells as Excel shows them. Result: `{ csv }`.',
      argsSchema: z.strictObject({ xls: text, vaultFile }),
      example: { xls: '{{inputs.XLS}}' },
      run: async (args, context) => ({ csv: await sandbox.runData('xls-to-csv', { xls: required(args.xls, 'XLS') }, context.signal) }),
    }),
    defineStepKind({
      kind: 'conversion.xls-to-xml',
      pure: true,
      description:
        'Reads the first sheet of the Excel workbook (.xls or .xlsx) whose Base64 is `xls`; its first row names the columns of `<rowset><row>…</row></rowset>`. Result: `{ xml }`.',
      argsSchema: z.strictObject({ xls: text, vaultFile }),
      example: { xls: '{{inputs.XLS}}' },
      run: async (args, context) => ({ xml: await sandbox.runData('xls-to-xml', { xls: required(args.xls, 'XLS') }, context.signal) }),
    }),
    defineStepKind({
      kind: 'conversion.feed-to-json',
      pure: true,
      description:
        'Converts an RSS or Atom feed `xml` to JSON as conversion.xml-to-json does; `status`, the HTTP status it came with, must be 2xx when given. Result: `{ json }`.',
      argsSchema: z.strictObject({ xml: text, status: z.string().max(10).default('') }),
      example: { xml: '{{inputs.Feed}}', status: '200' },
      run: async (args, context) => {
        if (args.status !== '' && !/^2\d\d$/.test(args.status)) throw new InvalidStepInputError(`the feed's server answered with HTTP status ${args.status}`);
        return { json: await sandbox.runData('feed-to-json', { xml: args.xml }, context.signal) };
      },
    }),
  ];
}
