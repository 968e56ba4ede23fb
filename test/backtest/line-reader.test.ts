/**
 * The line reader (tape/line-reader.ts) against a plain split, over random files: lines from empty to
 * longer than a chunk and than the reserve kept for a carried line, CRLF endings, a last line without a
 * newline, small chunks (so its three buffers are reused many times), and reading from a line's offset
 * with its number (what the tape worker does after a hand-over), nextOffset pointing at the next line.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { readLineBatches } from '../../backtest/tape/line-reader.ts';
import { tempDir } from './helpers/history-file.ts';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function readAll(file: string, chunkBytes: number, start?: { offset: number; line: number }) {
  const lines: { line: number; text: string; next: number }[] = [];
  for await (const b of readLineBatches(file, { chunkBytes, ...(start === undefined ? {} : { start }) })) {
    for (let i = 0; i < b.count; i++)
      lines.push({
        line: b.firstLine + i,
        text: b.buf.toString('latin1', b.starts[i], b.ends[i]),
        next: i === b.count - 1 ? b.nextOffset : -1,
      });
  }
  return lines;
}

const lineText = fc.oneof(
  { weight: 8, arbitrary: fc.string({ maxLength: 300 }).map((s) => s.replace(/[\r\n]/g, 'x')) },
  { weight: 1, arbitrary: fc.integer({ min: 60_000, max: 140_000 }).map((n) => 'L'.repeat(n)) },
);

describe('readLineBatches', () => {
  it('gives the lines a plain split gives, from the start or from a line offset', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(lineText, { minLength: 1, maxLength: 60 }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom(1024, 4096, 70_000),
        fc.nat(),
        async (texts, crlf, trailing, chunkBytes, pick) => {
          const file = path.join(dir, `f${run++}.txt`);
          const eol = crlf ? '\r\n' : '\n';
          const body = texts.join(eol) + (trailing ? eol : '');
          writeFileSync(file, body, 'latin1');
          // a plain split, without the empty piece after a final newline (or of an empty file)
          const pieces = body.split('\n');
          if (pieces.at(-1) === '') pieces.pop();
          const expected = pieces.map((text, i) => ({ line: i + 1, text: text.endsWith('\r') ? text.slice(0, -1) : text }));
          const got = await readAll(file, chunkBytes);
          expect(got.map(({ line, text }) => ({ line, text }))).toEqual(expected);
          if (expected.length === 0) return;
          // nextOffset at the end of each batch is where the next line starts
          const offsets = [0];
          for (const t of pieces) offsets.push((offsets.at(-1) as number) + Buffer.byteLength(t, 'latin1') + 1);
          for (const g of got) if (g.next >= 0 && g.line < expected.length) expect(g.next).toBe(offsets[g.line]);
          // from line k's offset, numbered from k
          const k = 1 + (pick % expected.length);
          const from = await readAll(file, chunkBytes, { offset: offsets[k - 1] as number, line: k });
          expect(from.map(({ line, text }) => ({ line, text }))).toEqual(expected.slice(k - 1));
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});
