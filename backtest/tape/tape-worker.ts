/**
 * The tape worker thread's body (started by tape-worker-pool.ts for tape-thread.ts from its esbuild bundle,
 * worker-bundle.ts, or through tape-worker.mjs and tsx when esbuild cannot bundle). It serves jobs, one
 * after another, for as long as the thread lives (the pool keeps it between replays of a process, its code
 * warm): a job message brings the history file, its header line, the fast path, the supersede window, the
 * chunk size and the job's shared ring (trade-ring.ts). The worker says it is ready in that ring and waits
 * for where to start (the replay thread reads the first lines itself meanwhile, and hands over its
 * supersede window and counts); then it reads the file's trade lines from there, extracts and supersedes
 * them (TradeExtractor, as the replay thread would) and hands the released trades over in the ring, one
 * commit per chunk of lines with the running TapeStats and bytes read. The ring's size bounds how far ahead
 * it reads: it blocks while the ring is full, so memory stays fixed whatever the file length. The ring's DONE
 * ends the job; the worker then waits for the next one. It loads the full parser (the domain codecs) only
 * when a line needs it. An error is posted with its code and message (the line number is in the message)
 * and the ring marked failed; the worker then serves no more jobs (it stops listening, so the thread ends).
 * The replay thread ends a worker whose job it stops early with terminate().
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import { isTradebotError } from '../../src/errors.ts';
import { BacktestErrorCode } from '../errors.ts';
import { createLineScanner } from './line-scanner.ts';
import { readLineBatches } from './line-reader.ts';
import { SupersedeWindow } from './supersede-window.ts';
import { TradeBatch } from './trade-batch.ts';
import { TradeExtractor, type FullLineParser } from './trade-extractor.ts';
import { RingWriter } from './trade-ring.ts';
import type { TapeWorkerData, TapeWorkerError, TapeWorkerMessage, TapeWorkerStart } from './tape-thread-protocol.ts';

if (parentPort === null) throw new Error('tape-worker.ts runs in a worker thread');
const port: MessagePort = parentPort;

/** Messages in arrival order (a job and its start may both come while the previous job still runs). */
const queue: TapeWorkerMessage[] = [];
let waiting: ((message: TapeWorkerMessage) => void) | undefined;
function onMessage(message: TapeWorkerMessage): void {
  const resolve = waiting;
  waiting = undefined;
  if (resolve === undefined) queue.push(message);
  else resolve(message);
}
port.on('message', onMessage);

function nextMessage(): Promise<TapeWorkerMessage> {
  const message = queue.shift();
  return message === undefined ? new Promise((resolve) => (waiting = resolve)) : Promise.resolve(message);
}

async function loadFullParser(data: TapeWorkerData): Promise<FullLineParser> {
  const [{ TradeLineParser }, { parseHeader }] = await Promise.all([import('./trade-line.ts'), import('../history/format.ts')]);
  const header = parseHeader(data.headerLine, data.file);
  return new TradeLineParser(header.source, header.instruments, data.file, header.format ?? 'full');
}

async function runJob(data: TapeWorkerData, ring: RingWriter): Promise<void> {
  ring.ready();
  const message = await nextMessage();
  if (message.type !== 'start') throw new Error(`the tape worker expected where to start, got a ${message.type} message`);
  const start: TapeWorkerStart = message.from;
  const window = start.state === undefined ? new SupersedeWindow(data.supersedeWindow) : SupersedeWindow.restore(start.state.window);
  const extractor = new TradeExtractor(createLineScanner(data.scanner), window, data.file);
  if (start.state !== undefined) extractor.restoreStats(start.state.stats);
  const out = new TradeBatch(8192);
  let bytesRead = start.offset;
  for await (const lines of readLineBatches(data.file, {
    chunkBytes: data.chunkBytes,
    start: { offset: start.offset, line: start.line },
  })) {
    bytesRead = lines.bytesRead;
    for (let i = 0; ;) {
      i = extractor.process(lines, i, out);
      if (i >= lines.count) break;
      extractor.full = await loadFullParser(data);
    }
    if (out.count > 0) ring.write(out, extractor.stats, bytesRead);
    out.clear();
  }
  extractor.finish(out);
  ring.write(out, extractor.stats, bytesRead);
  ring.finish(extractor.stats, bytesRead);
}

async function serve(): Promise<void> {
  for (;;) {
    const message = await nextMessage();
    if (message.type !== 'job') throw new Error(`the tape worker expected a job, got a ${message.type} message`);
    const { data } = message;
    const ring = new RingWriter(data.ring);
    try {
      await runJob(data, ring);
    } catch (error) {
      const code = isTradebotError(error) ? error.code : BacktestErrorCode.DATA_UNREADABLE;
      const text = isTradebotError(error)
        ? error.message
        : `cannot read the history file ${data.file}: ${error instanceof Error ? error.message : String(error)}`;
      const posted: TapeWorkerError = { type: 'error', code, message: text, kind: isTradebotError(error) ? error.kind : 'config' };
      port.postMessage(posted);
      ring.fail();
      port.off('message', onMessage); // no further job: the thread ends once idle
      return;
    }
  }
}

// A protocol error outside a job (no ring to mark it in) is left uncaught: the thread fails with it, and
// the replay thread sees it end.
void serve();
