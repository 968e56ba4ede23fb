/**
 * A strict RFC 4180 reader for the CSV files a backtest writes (quoted cells with doubled quotes, commas and
 * line breaks inside; CRLF line ends), returning rows as objects keyed by the header.
 */
import { readFileSync } from 'node:fs';

export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') {
      if (cell !== '') throw new Error(`a quote inside an unquoted cell at ${i}`);
      quoted = true;
    } else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else if (c === '\n') throw new Error(`a bare LF at ${i}: rows end with CRLF`);
    else cell += c;
  }
  if (quoted || cell !== '' || row.length > 0) throw new Error('the last row does not end with CRLF');
  return rows;
}

export function readCsvRecords(file: string): Record<string, string>[] {
  const [header, ...rows] = parseCsv(readFileSync(file, 'utf8'));
  if (header === undefined) throw new Error(`${file} is empty`);
  return rows.map((cells) => {
    if (cells.length !== header.length) throw new Error(`${file}: a row of ${cells.length} cells under ${header.length} columns`);
    return Object.fromEntries(header.map((h, i) => [h, cells[i] as string]));
  });
}
