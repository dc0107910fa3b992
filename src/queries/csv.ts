// CSV answers of the queries (RFC 4180 quoting, CRLF line ends), safe to open in a spreadsheet.

/** One cell: strings and numbers as written, anything else empty; quoted when needed. */
export const csvCell = (value: unknown): string => {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
  // Cells a spreadsheet would run as a formula are quoted with a leading apostrophe.
  const safe = /^[=+\-@\t\r]/.test(text) && !/^-?\d/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** A header row, then one row per record. */
export function csvText(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  return [header.join(','), ...rows.map((row) => row.map(csvCell).join(','))].join('\r\n') + '\r\n';
}
