/**
 * fills.csv and orders.csv (results/trade-tables.ts) on a hand-written tape: one row per fill and per order,
 * written during the replay; a label with a comma, quotes and a line break survives an RFC 4180 reader; an
 * order's fee, liquidity and filled notional add up from its fills; an order left working at the end is
 * written with its final state. And equity.csv's layout.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { equityTable } from '../../backtest/results/write-results.ts';
import { parseCsv, readCsvRecords } from './helpers/csv.ts';
import { scripted, T0, tempDir, testConfig, writeHistory } from './helpers/history-file.ts';

const LABEL = 'ladder, "inner"\nleg';

describe('trade tables', () => {
  it('write a row per fill and per order, labels quoted, fees and notional summed per order', async () => {
    const dir = tempDir();
    const file = writeHistory(path.join(dir, 'h.jsonl'), [
      { at: 1000, price: 45, qty: 5, side: 'buy' },
      { at: 2000, price: 40, qty: 5, side: 'sell' },
      { at: 3000, price: 41, qty: 2, side: 'sell' }, // 2 of the resting bid at 0.41
      { at: 4000, price: 41, qty: 1, side: 'sell' }, // 1 more
    ]);
    let placed = false;
    const strategy = scripted({
      onBook(ctx, book) {
        if (placed || book.mid === undefined) return;
        placed = true;
        ctx.place({ symbol: book.symbol, side: 'BUY', qty: 5, price: '0.41', label: LABEL });
        ctx.place({ symbol: book.symbol, side: 'BUY', qty: 2, price: '0.46', timeInForce: 'IMMEDIATE_OR_CANCEL', label: 'take' });
      },
    });
    const out = path.join(dir, 'out');
    const config = testConfig({
      latency: { insertMs: 0, cancelMs: 0 },
      queueAheadModel: { model: 'none' },
      commissions: { takerBps: '10', makerBps: '1' },
    });
    const result = await runBacktest({ data: file, config, strategy, params: { symbols: ['SYN-A'] }, tablesDir: out });
    const fills = readCsvRecords(path.join(out, 'fills.csv'));
    expect(fills.map((f) => [f['time'], f['side'], f['qty'], f['price'], f['fee'], f['liquidity'], f['label']])).toEqual([
      [new Date(T0 + 2000).toISOString(), 'BUY', '2', '0.45', '0.0009', 'taker', 'take'],
      [new Date(T0 + 3000).toISOString(), 'BUY', '2', '0.41', '0.000082', 'maker', LABEL],
      [new Date(T0 + 4000).toISOString(), 'BUY', '1', '0.41', '0.000041', 'maker', LABEL],
    ]);
    expect(fills).toHaveLength(result.report['fills'] as number);
    const orders = readCsvRecords(path.join(out, 'orders.csv'));
    expect(orders).toHaveLength(result.report['orders'] as number);
    // the IOC ends first; the bid, partly filled, is cancelled at the stop
    expect(orders.map((o) => [o['label'], o['state'], o['qty'], o['filled'], o['filled_notional'], o['fee'], o['liquidity']])).toEqual([
      ['take', 'FILLED', '2', '2', '0.9', '0.0009', 'taker'],
      [LABEL, 'CANCELED', '5', '3', '1.23', '0.000123', 'maker'],
    ]);
    expect(fills[1]?.['clord_id']).toBe(orders[1]?.['clord_id']);
  });

  it('lays equity.csv out as time, equity, drawdown', () => {
    const text = equityTable({
      equity: [
        { t: T0, v: '100' },
        { t: T0 + 60_000, v: '99.5' },
      ],
      drawdown: [
        { t: T0, v: '0' },
        { t: T0 + 60_000, v: '-0.5' },
      ],
    });
    expect(parseCsv(text)).toEqual([
      ['time', 'equity', 'drawdown'],
      [new Date(T0).toISOString(), '100', '0'],
      [new Date(T0 + 60_000).toISOString(), '99.5', '-0.5'],
    ]);
  });
});
