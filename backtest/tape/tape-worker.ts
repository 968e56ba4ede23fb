/**
 * The tape worker thread's body (started by tape-thread.ts through tape-worker.mjs): reads a history
 * file's trade lines, extracts and supersedes them (TradeExtractor, as the replay thread would) and posts
 * the released trades to the replay thread as TradeBatch columns whose buffers are transferred, with the
 * running TapeStats and bytes read. At most `ahead` batches are in flight: the worker blocks (Atomics.wait
 * on the shared counter of batches the replay thread has taken) until one is taken, so memory stays
 * bounded whatever the file length. It loads the full parser (the domain codecs) only when a line needs
 * it. An error is posted with its code and message (the line number is in the message), then the worker
 * ends; the replay thread ends it early with terminate().
 */
import { parentPort, workerData } from 'node:worker_threads';
import { isTradebotError } from '../../src/errors.ts';
import { BacktestErrorCode } from '../errors.ts';
import type { HistorySource } from '../history/format.ts';
import { readLineBatches } from './line-reader.ts';
import { SupersedeWindow } from './supersede-window.ts';
import { TradeBatch } from './trade-batch.ts';
import { TradeExtractor, type FullLineParser } from './trade-extractor.ts';
import { TradeScanner } from './trade-scan.ts';
import type { TapeWorkerData, TapeWorkerMessage } from './tape-thread-protocol.ts';

const data = workerData as TapeWorkerData;
const port = parentPort;
if (port === null) throw new Error('tape-worker.ts runs in a worker thread');

function post(message: TapeWorkerMessage, transfer: ArrayBuffer[] = []): void {
  port?.postMessage(message, transfer);
}

async function loadFullParser(source: HistorySource): Promise<FullLineParser> {
  const [{ TradeLineParser }, { parseHeader }] = await Promise.all([import('./trade-line.ts'), import('../history/format.ts')]);
  const header = parseHeader(data.headerLine, data.file);
  return new TradeLineParser(source, header.instruments, data.file);
}

async function run(): Promise<void> {
  const taken = new Int32Array(data.taken);
  const extractor = new TradeExtractor(new TradeScanner(data.source, data.symbols), new SupersedeWindow(data.supersedeWindow), data.file);
  let out = new TradeBatch(data.batchTrades);
  let posted = 0;
  let bytesRead = 0;
  const send = (done: boolean) => {
    const { message, transfer } = out.toMessage();
    post({ type: 'batch', batch: message, stats: { ...extractor.stats }, bytesRead, done }, transfer);
    posted++;
    if (done) return;
    out = new TradeBatch(Math.max(data.batchTrades, out.count + 64));
    for (let seen = Atomics.load(taken, 0); posted - seen >= data.ahead; seen = Atomics.load(taken, 0)) {
      Atomics.add(taken, 1, 1);
      Atomics.notify(taken, 1);
      Atomics.wait(taken, 0, seen);
    }
  };
  for await (const lines of readLineBatches(data.file, { chunkBytes: data.chunkBytes })) {
    bytesRead = lines.bytesRead;
    for (let i = 0; ; ) {
      i = extractor.process(lines, i, out);
      if (i >= lines.count) break;
      extractor.full = await loadFullParser(data.source);
    }
    if (out.count >= data.batchTrades) send(false);
  }
  extractor.finish(out);
  send(true);
}

run().catch((error: unknown) => {
  const code = isTradebotError(error) ? error.code : BacktestErrorCode.DATA_UNREADABLE;
  const message = isTradebotError(error) ? error.message : `cannot read the history file ${data.file}: ${error instanceof Error ? error.message : String(error)}`;
  post({ type: 'error', code, message, kind: isTradebotError(error) ? error.kind : 'config' });
});
