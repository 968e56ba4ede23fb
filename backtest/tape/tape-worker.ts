/**
 * The tape worker thread's body (started by tape-thread.ts from its esbuild bundle, worker-bundle.ts, or
 * through tape-worker.mjs and tsx when esbuild cannot bundle): once up, it says so
 * and waits for where to start (the replay thread reads the first lines itself meanwhile, and hands over
 * its supersede window and counts); then it reads the history file's trade lines from there, extracts
 * and supersedes them (TradeExtractor, as the replay thread would) and hands
 * the released trades over in the shared ring (trade-ring.ts), one commit per chunk of lines with the
 * running TapeStats and bytes read. The ring's size bounds how far ahead it reads: it blocks while the
 * ring is full, so memory stays fixed whatever the file length. It loads the full parser (the domain
 * codecs) only when a line needs it. An error is posted with its code and message (the line number is in
 * the message) and the ring marked failed; the replay thread ends the worker early with terminate().
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { isTradebotError } from '../../src/errors.ts';
import { BacktestErrorCode } from '../errors.ts';
import { createLineScanner } from './line-scanner.ts';
import { readLineBatches } from './line-reader.ts';
import { SupersedeWindow } from './supersede-window.ts';
import { TradeBatch } from './trade-batch.ts';
import { TradeExtractor, type FullLineParser } from './trade-extractor.ts';
import { RingWriter } from './trade-ring.ts';
import type { TapeWorkerData, TapeWorkerError, TapeWorkerStart } from './tape-thread-protocol.ts';

const data = workerData as TapeWorkerData;
if (parentPort === null) throw new Error('tape-worker.ts runs in a worker thread');
const port: MessagePort = parentPort;


async function loadFullParser(): Promise<FullLineParser> {
  const [{ TradeLineParser }, { parseHeader }] = await Promise.all([import('./trade-line.ts'), import('../history/format.ts')]);
  const header = parseHeader(data.headerLine, data.file);
  return new TradeLineParser(header.source, header.instruments, data.file, header.format ?? 'full');
}

const ring = new RingWriter(data.ring);

async function run(): Promise<void> {
  ring.ready();
  const start = await new Promise<TapeWorkerStart>((resolve) => port.once('message', resolve));
  const window = start.state === undefined ? new SupersedeWindow(data.supersedeWindow) : SupersedeWindow.restore(start.state.window);
  const extractor = new TradeExtractor(createLineScanner(data.scanner), window, data.file);
  if (start.state !== undefined) extractor.restoreStats(start.state.stats);
  const out = new TradeBatch(8192);
  let bytesRead = start.offset;
  for await (const lines of readLineBatches(data.file, { chunkBytes: data.chunkBytes, start: { offset: start.offset, line: start.line } })) {
    bytesRead = lines.bytesRead;
    for (let i = 0; ; ) {
      i = extractor.process(lines, i, out);
      if (i >= lines.count) break;
      extractor.full = await loadFullParser();
    }
    if (out.count > 0) ring.write(out, extractor.stats, bytesRead);
    out.clear();
  }
  extractor.finish(out);
  ring.write(out, extractor.stats, bytesRead);
  ring.finish(extractor.stats, bytesRead);
}

run().catch((error: unknown) => {
  const code = isTradebotError(error) ? error.code : BacktestErrorCode.DATA_UNREADABLE;
  const message = isTradebotError(error) ? error.message : `cannot read the history file ${data.file}: ${error instanceof Error ? error.message : String(error)}`;
  const posted: TapeWorkerError = { type: 'error', code, message, kind: isTradebotError(error) ? error.kind : 'config' };
  port.postMessage(posted);
  ring.fail();
});
