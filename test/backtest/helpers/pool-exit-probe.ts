/**
 * Child-process probe for the tape worker pool test (run with `node --import tsx`): reads a history file
 * twice, one replay after the other, each wholly on the tape worker, and prints one JSON line: the pool's
 * stats and each read's trade count and last line. It neither empties the pool nor calls process.exit:
 * the test checks that the process ends on its own while the warm worker waits in the pool.
 * Usage: pool-exit-probe.ts <history file>
 */
import { TapeReader } from '../../../backtest/tape/tape-reader.ts';
import { tapeWorkerPoolStats } from '../../../backtest/tape/tape-worker-pool.ts';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: pool-exit-probe.ts <history file>');
const reads: { trades: number; lastLine: number }[] = [];
for (let run = 0; run < 2; run++) {
  const tape = await TapeReader.open(file, { thread: 'worker', handover: 0 });
  let trades = 0;
  let lastLine = 0;
  try {
    for await (const batch of tape.batches()) {
      trades += batch.count;
      lastLine = batch.line[batch.count - 1] as number;
    }
  } finally {
    await tape.close();
  }
  reads.push({ trades, lastLine });
}
console.log(JSON.stringify({ stats: tapeWorkerPoolStats(), reads }));
