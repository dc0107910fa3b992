// CSV answers of the queries (RFC 4180 quoting, CRLF line ends), safe to open in a spreadsheet. Every CSV the
// service writes goes through csvText, so every cell (the header too) goes through csvCell.

/** What a spreadsheet may run as a formula: = + - @, a leading tab, CR or LF, and the full-width = + - @. */
const FORMULA_START = /^[=+\-@\t\r\n\uFF1D\uFF0B\uFF0D\uFF20]/;
/** Only a cell that is wholly a plain decimal number is left as it is ('-1+HYPERLINK(...)' starts like one). */
const PLAIN_NUMBER = /^-?\d+(\.\d+)?$/;

const isNumber = (value: unknown, text: string): boolean =>
  (typeof value === 'number' && Number.isFinite(value)) || PLAIN_NUMBER.test(text);

/** One cell: strings and numbers as written, anything else empty; quoted when needed. */
export const csvCell = (value: unknown): string => {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  // Cells a spreadsheet would run as a formula are quoted with a leading apostrophe.
  const safe = FORMULA_START.test(text) && !isNumber(value, text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** Said in the description of every CSV route. */
export const CSV_FORMULA_NOTE =
  'A CSV cell that a spreadsheet would run as a formula (starting with = + - @, a tab, CR or LF) starts with an apostrophe, ' +
  'unless it is wholly a number.';

/** A header row, then one row per record. */
export function csvText(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
