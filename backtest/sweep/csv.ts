/**
 * CSV text (RFC 4180): a cell holding a comma, a double quote, a line break or edge spaces is quoted, with
 * its quotes doubled; lines end with CRLF as the RFC says (every spreadsheet and CSV reader accepts it).
 */

export function csvCell(text: string): string {
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(columns: readonly string[], rows: readonly (readonly string[])[]): string {
  return [columns, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
