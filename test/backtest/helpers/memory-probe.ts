/**
 * Child-process probe for the memory test (run with `node --expose-gc --import tsx`): replays a history
 * file with a strategy (a name or path: market-maker, or helpers/requoter.ts) through the whole backtest
 * pipeline and, at each tenth of the file read,
 * forces a full garbage collection and records the heap still in use (what the replay retains). Prints
 * one JSON line: `{ samples: [{ at, trades, heapUsedMB }], events, orders, fills }`.
 * The engine's bounded histories (finished orders and forgotten ones, fill ids, execution ids) are set small, so a replay of a few hundred
 * thousand trades fills them early: from then on, whatever still grows would grow with the history.
 * Usage: memory-probe.ts <strategy> <history file> <symbol> [<symbol> ...]
 */
import { runBacktest } from '../../../backtest/run-backtest.ts';
import { backtestSection, type BacktestConfig } from '../../../backtest/config.ts';
import { parseConfig } from '../../../src/config/index.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('run with node --expose-gc');
const [strategy, file, ...symbols] = process.argv.slice(2);
if (strategy === undefined || file === undefined || symbols.length === 0)
  throw new Error('usage: memory-probe.ts <strategy> <history file> <symbol> [...]');

const config = {
  ...parseConfig('bot: { account: firms/test/accounts/bot }\nrisk: { maxMessagesPerSecond: 100 }\n'),
  backtest: backtestSection().parse({ latency: { insertMs: 20, cancelMs: 20 }, maxSeriesPoints: 200 }),
} as BacktestConfig;
const samples: { at: number; trades: number; heapUsedMB: number }[] = [];
let next = 0.1;
const result = await runBacktest({
  data: file,
  config,
  strategy,
  params: strategy === 'market-maker' ? { symbols, halfSpread: '0.01', quoteQty: '2', maxInventory: '20' } : { symbols },
  readerOptions: { chunkBytes: 256 * 1024 },
  finishedOrderHistory: 200,
  fillIdMemory: 500,
  executionDedupeCapacity: 1000,
  forgottenOrderMemory: 2000,
  onProgress: (p) => {
    const at = p.bytesRead / p.totalBytes;
    if (at + 1e-9 < next) return;
    while (next <= at + 1e-9) next += 0.1;
    gc();
    gc();
    samples.push({
      at: Math.round(at * 100) / 100,
      trades: p.events,
      heapUsedMB: Math.round((process.memoryUsage().heapUsed / 1048576) * 10) / 10,
    });
  },
});
process.stdout.write(
  `${JSON.stringify({ samples, events: result.report['events'], orders: result.report['orders'], fills: result.report['fills'] })}\n`,
);
