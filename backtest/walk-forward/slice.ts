/**
 * A walk-forward window's tape: the trades of a trade history whose time lies in [from, to), after the
 * history's header with `from` and `to` set to the window's bounds, written as its own history file. Cut
 * by the same code wherever a window runs (this machine or a queue worker), and named after the tape and the
 * window only (`sample.20261130T140000Z-20261130T141500Z.jsonl`), so a window's report.json is the same
 * byte for byte wherever it ran (report.json names the data by its file name). Lines are copied as they
 * are (busted and superseding records included); each line's time is read by the tape's own line parser.
 */
import { open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { formatTimestamp } from '../../src/domain/time.ts';
import { TradebotError } from '../../src/errors.ts';
import { encodeHeader, parseHeader, type HistoryHeader } from '../history/format.ts';
import { readLineBatches } from '../tape/line-reader.ts';
import { newTradeFields, TradeLineParser } from '../tape/trade-line.ts';
import type { TapeWindow } from '../sweep/types.ts';

/** `20261130T140000Z` (milliseconds only when there are some). */
function compactTime(ms: number): string {
  return formatTimestamp(ms)
    .replace(/[-:]/g, '')
    .replace(/\.000Z$/, 'Z');
}

/** The slice's file name: the tape's name without its extension, then the window. */
export function sliceName(tape: string, window: TapeWindow): string {
  const base = path.basename(tape).replace(/\.jsonl?$/, '');
  return `${base}.${compactTime(window.from)}-${compactTime(window.to)}.jsonl`;
}

/** The header of a trade history (a recording cannot be cut into windows). */
export async function readTradeHeader(tape: string): Promise<HistoryHeader> {
  for await (const batch of readLineBatches(tape)) {
    const line = batch.buf.toString('utf8', batch.starts[0], batch.ends[0]);
    const header = parseHeader(line, tape);
    if (header.kind !== 'history')
      throw new TradebotError(
        'WALK_FORWARD_RECORDING',
        `${tape} is a recording of a live session: walk-forward windows are cut from trade histories (tradebot history fetch)`,
        { kind: 'config' },
      );
    return header;
  }
  throw new TradebotError('WALK_FORWARD_EMPTY_TAPE', `${tape} is empty: expected a header line and trade lines`, { kind: 'config' });
}

/** Writes the window's slice of `tape` to `file` (through a temporary file renamed into place); returns the trades kept. */
export async function writeSlice(tape: string, window: TapeWindow, file: string): Promise<number> {
  const temp = `${file}.${process.pid}.part`;
  const out = await open(temp, 'w');
  let kept = 0;
  try {
    let parser: TradeLineParser | undefined;
    const fields = newTradeFields();
    for await (const batch of readLineBatches(tape)) {
      const parts: Buffer[] = [];
      for (let i = 0; i < batch.count; i++) {
        const start = batch.starts[i] as number;
        const end = batch.ends[i] as number;
        const lineNo = batch.firstLine + i;
        if (parser === undefined) {
          const header = parseHeader(batch.buf.toString('utf8', start, end), tape);
          if (header.kind !== 'history') throw new TradebotError('WALK_FORWARD_RECORDING', `${tape} is a recording, not a trade history`);
          parser = new TradeLineParser(header.source, header.instruments, tape, header.format ?? 'full');
          parts.push(Buffer.from(encodeHeader({ ...header, from: window.from, to: window.to }), 'utf8'));
          continue;
        }
        if (end === start) continue;
        parser.parse(batch.buf, start, end, lineNo, fields);
        if (fields.time < window.from || fields.time >= window.to) continue;
        parts.push(Buffer.from(batch.buf.subarray(start, end)), NEWLINE);
        kept++;
      }
      if (parts.length > 0) await out.write(Buffer.concat(parts));
    }
    await out.close();
    await rename(temp, file);
    return kept;
  } catch (error) {
    await out.close().catch(() => undefined);
    await rm(temp, { force: true });
    throw error;
  }
}

const NEWLINE = Buffer.from('\n');
