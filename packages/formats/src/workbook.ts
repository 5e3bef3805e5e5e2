import type * as Xlsx from '@e965/xlsx';
import { libraryOnFirstUse } from './library-on-first-use.ts';
import { InvalidStepInputError } from '@ces/language';

/**
 * Excel workbooks, as the original Utilities exchange them: Base64 text. Read from Excel 97-2003
 * files (.xls, BIFF5/BIFF8), the format the original names, and from .xlsx; written as .xlsx,
 * which every Excel since 2007 opens (and 2000-2003 with Microsoft's compatibility pack): SheetJS
 * writes BIFF8 with a 16 KiB buffer kept for every cell, some 400 MB and seconds for 8,000 rows of
 * three cells, while its .xlsx takes a few MB and a fraction of that time.
 *
 * SheetJS is loaded on first use: the sandbox processes that never see a workbook do not pay for it.
 */
const library = libraryOnFirstUse<typeof Xlsx>('@e965/xlsx');

/** What an Excel sheet holds, and a cell. */
export const MAX_SHEET_ROWS = 1_048_576;
export const MAX_SHEET_COLUMNS = 16_384;
const MAX_CELL_TEXT = 32_767;
/** Rows read from a workbook: as many as the other conversions take. */
const MAX_ROWS_READ = 100_000;

/** Text that Excel should hold as a number: written the way JavaScript writes that number back (so "007" and "1e5" stay text). */
function cellValue(text: string): string | number | null {
  // No cell at all, rather than a cell holding empty text.
  if (text === '') return null;
  if (/^-?(0|[1-9]\d{0,14})(\.\d{1,15})?$/.test(text)) {
    const number = Number(text);
    if (String(number) === text) return number;
  }
  return text;
}

/** Rows (the first one usually the header) as the Base64 of an .xlsx workbook with one sheet, Sheet1. */
export function rowsToXls(rows: readonly (readonly string[])[]): string {
  if (rows.length > MAX_SHEET_ROWS) throw new InvalidStepInputError(`an Excel sheet holds at most ${MAX_SHEET_ROWS} rows, not ${rows.length}`);
  const width = rows.reduce((widest, row) => Math.max(widest, row.length), 0);
  if (width > MAX_SHEET_COLUMNS) throw new InvalidStepInputError(`an Excel sheet holds at most ${MAX_SHEET_COLUMNS} columns, not ${width}`);
  const cells = rows.map((row) =>
    row.map((text) => {
      if (text.length > MAX_CELL_TEXT) throw new InvalidStepInputError(`an Excel cell holds at most ${MAX_CELL_TEXT} characters, not ${text.length}`);
      return cellValue(text);
    }),
  );
  const { utils, write } = library();
  const book = utils.book_new();
  utils.book_append_sheet(book, utils.aoa_to_sheet(cells, { dense: true }), 'Sheet1');
  return write(book, { type: 'base64', bookType: 'xlsx', compression: true }) as string;
}

/**
 * The first sheet of a workbook given as Base64, as rows of the cells' text as Excel shows it
 * (numbers and dates in their cell's format); rows with nothing in them are skipped.
 */
export function xlsToRows(base64: string): string[][] {
  const compact = base64.replace(/\s+/g, '');
  if (compact === '') throw new InvalidStepInputError('XLS is empty');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw new InvalidStepInputError('XLS is not valid Base64');
  const bytes = Buffer.from(compact, 'base64');
  const isCompoundFile = bytes.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]));
  const isZip = bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  // SheetJS would also read CSV, HTML or SYLK text as a "workbook": only Excel's own formats are taken.
  if (!isCompoundFile && !isZip) throw new InvalidStepInputError('XLS is not an Excel workbook (.xls or .xlsx)');
  const { read, utils } = library();
  let book: Xlsx.WorkBook;
  try {
    book = read(bytes, { type: 'buffer', dense: true, sheetRows: MAX_ROWS_READ + 1, cellHTML: false, cellStyles: false, bookVBA: false });
  } catch (error) {
    throw new InvalidStepInputError(`XLS is not a workbook that can be read: ${(error as Error).message.slice(0, 200)}`);
  }
  const firstName = book.SheetNames[0];
  const sheet = firstName === undefined ? undefined : book.Sheets[firstName];
  if (sheet === undefined) return [];
  const rows = utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: false, defval: '', blankrows: false });
  if (rows.length > MAX_ROWS_READ) throw new InvalidStepInputError(`the workbook's first sheet has more than ${MAX_ROWS_READ} rows`);
  return rows.map((row) => row.map((cell) => (cell === null || cell === undefined ? '' : String(cell))));
}
