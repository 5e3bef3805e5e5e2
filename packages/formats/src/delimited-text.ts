import type * as CsvParse from 'csv-parse/sync';
import { libraryOnFirstUse } from './library-on-first-use.ts';
import { InvalidStepInputError } from '@ces/language';

const csvParse = libraryOnFirstUse<typeof CsvParse>('csv-parse/sync');

/** As many rows as the CSV to JSON conversion reads: past that a table is refused. */
export const MAX_TABLE_ROWS = 100_000;

/**
 * Reads CSV or TSV text into rows of fields (RFC 4180 quoting; in TSV a field is quoted only
 * when it holds a tab, a quote or a line break, as spreadsheets write it). Blank lines are skipped.
 */
export function readDelimited(text: string, delimiter: string, what: string): string[][] {
  let records: string[][];
  try {
    records = csvParse().parse(text, {
      delimiter,
      skip_empty_lines: true,
      bom: true,
      relax_column_count: true,
      // In TSV a quote inside a field is plain text more often than not.
      relax_quotes: delimiter === '\t',
      to: MAX_TABLE_ROWS + 2,
    }) as string[][];
  } catch (error) {
    throw new InvalidStepInputError(`${what} is not valid: ${(error as Error).message}`);
  }
  if (records.length > MAX_TABLE_ROWS + 1) throw new InvalidStepInputError(`${what} has more than ${MAX_TABLE_ROWS} rows`);
  return records;
}

/** One field, quoted (RFC 4180) when it holds the delimiter, a quote, a line break or edge spaces. */
export function delimitedField(value: string, delimiter: string): string {
  const needsQuotes = value.includes(delimiter) || /["\r\n]/.test(value) || value !== value.trim();
  return needsQuotes ? `"${value.replaceAll('"', '""')}"` : value;
}

/** Rows as CSV or TSV text, a line feed between rows (none after the last); line breaks inside fields are kept, quoted. */
export function writeDelimited(rows: readonly (readonly string[])[], delimiter: string): string {
  return rows.map((row) => row.map((field) => delimitedField(field, delimiter)).join(delimiter)).join('\n');
}
