/**
 * The commands end to end, in-process: `tradebot backtest` on the shipped sample (report.json, run.json,
 * report.html, the summary; flags override the config), `tradebot history fetch` from the embedded
 * exchange, and the errors a user sees.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCli } from '../../src/cli/run-cli.ts';
import { captureOutput } from '../cli/helpers/output.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import { expectBySymbolAddsUp } from './helpers/by-symbol.ts';
import { readCsvRecords } from './helpers/csv.ts';
import { tempDir } from './helpers/history-file.ts';

afterEach(() => vi.restoreAllMocks());

describe('tradebot backtest', () => {
  it('replays the sample with the demo market maker and writes report.json, run.json and report.html', async () => {
    const out = path.join(tempDir(), 'out');
    const io = captureOutput();
    const code = await runCli([
      'backtest',
      '--strategy',
      'market-maker',
      '--data',
      'backtest/data/sample.jsonl',
      '--out',
      out,
      '--log-level',
      'error',
    ]);
    expect(code, io.err()).toBe(0);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Record<string, unknown>;
    for (const key of [
      'pnl',
      'fees',
      'fills',
      'orders',
      'refusals',
      'maxDrawdown',
      'sharpe',
      'sortino',
      'turnover',
      'events',
      'eventsPerSecond',
      'strategy',
      'params',
      'data',
      'config',
    ])
      expect(report).toHaveProperty(key);
    expect(report['strategy']).toBe('market-maker');
    expect(report['data']).toMatchObject({ file: 'sample.jsonl', source: 'gateway' });
    // settled from the exchange's data recorded in the sample (#22; was the last trade 0.65 rounded to 1)
    expect(report['settlements']).toEqual([
      { symbol: 'FED-CUT-2026-12', time: '2026-11-30T14:25:00.000Z', price: '1', source: 'exchange' },
    ]);
    expect(io.out()).toContain('settled    FED-CUT-2026-12 at 1 on 2026-11-30T14:25:00.000Z (price from exchange)');
    // bySymbol (#22): PnL, fees, fills, orders and turnover per symbol, adding up exactly to the totals
    const parts = expectBySymbolAddsUp(report);
    expect(Object.keys(parts).sort()).toEqual(['FED-CUT-2026-12', 'RAIN-NYC-2026-12-01']);
    // fills.csv, orders.csv, equity.csv beside report.json (#22): one row a fill / an order, exact decimals
    const fills = readCsvRecords(path.join(out, 'fills.csv'));
    const orders = readCsvRecords(path.join(out, 'orders.csv'));
    expect(fills).toHaveLength(report['fills'] as number);
    expect(orders).toHaveLength(report['orders'] as number);
    const total = (rows: Record<string, string>[], pick: (r: Record<string, string>) => Decimal) =>
      rows.reduce((sum, r) => sum.plus(pick(r)), new Decimal(0)).toString();
    expect(total(fills, (r) => new Decimal(r['qty'] as string).times(r['price'] as string))).toBe(report['turnover']);
    expect(total(fills, (r) => new Decimal(r['fee'] as string))).toBe(report['fees']);
    expect(total(orders, (r) => new Decimal(r['filled'] as string))).toBe(total(fills, (r) => new Decimal(r['qty'] as string)));
    expect(fills[0]).toMatchObject({ symbol: expect.any(String) as unknown, liquidity: 'maker', label: 'quote' });
    const equity = readCsvRecords(path.join(out, 'equity.csv'));
    expect(equity[0]).toEqual({ time: '2026-11-30T14:00:00.000Z', equity: '10000', drawdown: '0' });
    expect(equity.at(-1)?.['equity']).toBe((report['equity'] as { end: string }).end);
    // the tape's volume is conserved (tradeThrough print): at each time, the bot's resting orders never filled more
    // than the tape traded in that symbol
    const traded = new Map<string, Decimal>();
    for (const line of readFileSync('backtest/data/sample.jsonl', 'utf8').trimEnd().split('\n').slice(1)) {
      const t = JSON.parse(line) as { symbol: string; time: string; qty: string };
      const key = `${t.symbol} ${t.time}`;
      traded.set(key, (traded.get(key) ?? new Decimal(0)).plus(t.qty));
    }
    const passive = new Map<string, Decimal>();
    for (const f of fills.filter((r) => r['liquidity'] === 'maker')) {
      const key = `${f['symbol'] as string} ${f['time'] as string}`;
      passive.set(key, (passive.get(key) ?? new Decimal(0)).plus(f['qty'] as string));
    }
    for (const [key, qty] of passive) expect(qty.lte(traded.get(key) ?? 0), `${key}: filled ${qty.toString()}`).toBe(true);
    expect(io.out()).toContain(
      `tables     ${path.join(out, 'fills.csv')}, ${path.join(out, 'orders.csv')}, ${path.join(out, 'equity.csv')}`,
    );
    // the fill model (print by default since #22: fills never exceed the tape's volume) and how often the book changed
    expect(report['config']).toMatchObject({ tradeThrough: 'print' });
    expect(report['realism']).toMatchObject({
      book: 'synthetic',
      bookUpdates: 316,
      fillModel: { tradeThrough: 'print', queueAheadModel: { model: 'volume', windowMs: 30_000 } },
    });
    expect(io.out()).toContain(
      'fill model tradeThrough print (fills never exceed the volume the tape traded), queue ahead volume over 30000 ms',
    );
    expect(io.out()).toContain('book       synthetic: 316 updates, one every 8.494 s of market time');
    // 45 minutes of data: ratios of one-minute returns, not annualised (#22; was sqrt(525,600) x that, 9.45)
    expect(report['returns']).toMatchObject({ period: 'interval', periodMs: 60_000, annualised: false, periodsPerYear: null, count: 45 });
    expect(Math.abs(Number(report['sharpe']))).toBeLessThan(1);
    expect(io.out()).toMatch(/ratios {5}sharpe \S+ {3}sortino \S+ {3}per 1 min, not annualised \(45 returns, \d+ losing\)/);
    const run = JSON.parse(readFileSync(path.join(out, 'run.json'), 'utf8')) as Record<string, unknown>;
    expect(run['eventsPerSecondWall']).toBeGreaterThan(0);
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
    for (const label of ['PnL', 'max drawdown', 'sharpe', 'fills', 'refusals']) expect(io.out()).toContain(label);
    // both rates, each with the file it is in: wall-clock (run.json) and market time (report.json, deterministic)
    expect(io.out()).toContain(`${String(run['eventsPerSecondWall'])} events/s wall-clock (run.json eventsPerSecondWall`);
    expect(io.out()).toContain(`${String(report['eventsPerSecond'])} events/s of market time (report.json eventsPerSecond`);
    expect(report).not.toHaveProperty('eventsPerSecondWall');
  });

  it('logs in the replayed market time, so a log line matches the tape and fills.csv', async () => {
    const out = path.join(tempDir(), 'out');
    const io = captureOutput();
    const code = await runCli(['backtest', '--data', 'backtest/data/sample.jsonl', '--out', out, '--log-level', 'info']);
    expect(code, io.err()).toBe(0);
    const lines = io
      .err()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { time: string; msg: string; symbol?: string; qty?: string; price?: string });
    expect(lines.length).toBeGreaterThan(10);
    // every line within the data's window (the stop's cancels a latency after its end), none at the wall clock's
    for (const line of lines)
      expect(line.time >= '2026-11-30T14:00:00.000Z' && line.time <= '2026-11-30T14:45:01.000Z', line.time).toBe(true);
    const firstFill = readCsvRecords(path.join(out, 'fills.csv'))[0];
    const logged = lines.find((l) => l.msg === 'filled');
    expect(logged).toMatchObject({
      time: firstFill?.['time'],
      symbol: firstFill?.['symbol'],
      qty: firstFill?.['qty'],
      price: firstFill?.['price'],
    });
  });

  it('takes latency, commissions and the queue model from flags over the config', async () => {
    const out = path.join(tempDir(), 'out');
    const io = captureOutput();
    const code = await runCli([
      'backtest',
      '--data',
      'backtest/data/sample.jsonl',
      '--out',
      out,
      '--insert-latency-ms',
      '250',
      '--cancel-latency-ms',
      '120',
      '--taker-bps',
      '7.5',
      '--maker-bps',
      '1',
      '--queue-model',
      'none',
    ]);
    expect(code, io.err()).toBe(0);
    const report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as { config: Record<string, unknown> };
    expect(report.config).toMatchObject({
      latency: { insertMs: 250, cancelMs: 120, replaceMs: 120 },
      commissions: { takerBps: '7.5', makerBps: '1' },
      queueAheadModel: { model: 'none' },
    });
    // with fees on both sides, the parts still add up exactly
    expect(new Decimal((report as unknown as { fees: string }).fees).gt(0)).toBe(true);
    expectBySymbolAddsUp(report as unknown as Record<string, unknown>);
  });

  it("runs another strategy than the config's with its own defaults (the config's params are not for it), or with --params", async () => {
    const dir = tempDir();
    const io = captureOutput();
    const code = await runCli([
      'backtest',
      '--strategy',
      'momentum-taker',
      '--data',
      'backtest/data/sample.jsonl',
      '--config',
      'config/backtest.yaml',
      '--out',
      path.join(dir, 'defaults'),
    ]);
    expect(code, io.err()).toBe(0);
    expect(io.err()).toContain(
      "the config's bot.params are for market-maker, not momentum-taker: running momentum-taker with its defaults on the data's symbols",
    );
    const report = JSON.parse(readFileSync(path.join(dir, 'defaults', 'report.json'), 'utf8')) as {
      strategy: string;
      params: Record<string, unknown>;
    };
    expect(report.strategy).toBe('momentum-taker');
    expect(report.params).toMatchObject({
      symbols: ['RAIN-NYC-2026-12-01', 'SNOW-CHI-2026-12-01', 'FED-CUT-2026-12'],
      lookback: 10,
      threshold: '0.02',
    });

    writeFileSync(path.join(dir, 'p.yaml'), 'symbols: [FED-CUT-2026-12]\nlookback: 4\n');
    expect(
      await runCli([
        'backtest',
        '--strategy',
        'momentum-taker',
        '--data',
        'backtest/data/sample.jsonl',
        '--params',
        path.join(dir, 'p.yaml'),
        '--out',
        path.join(dir, 'given'),
      ]),
      io.err(),
    ).toBe(0);
    const given = JSON.parse(readFileSync(path.join(dir, 'given', 'report.json'), 'utf8')) as { params: Record<string, unknown> };
    expect(given.params).toMatchObject({ symbols: ['FED-CUT-2026-12'], lookback: 4 });

    // the configured strategy still gets the config's params; a strategy whose required params have no default says what to give
    expect(
      await runCli([
        'backtest',
        '--strategy',
        'market-maker',
        '--data',
        'backtest/data/sample.jsonl',
        '--out',
        path.join(dir, 'configured'),
      ]),
      io.err(),
    ).toBe(0);
    expect(
      (JSON.parse(readFileSync(path.join(dir, 'configured', 'report.json'), 'utf8')) as { params: { halfSpread: string } }).params
        .halfSpread,
    ).toBe('0.01');
    expect(
      await runCli(['backtest', '--strategy', 'cross-demo', '--data', 'backtest/data/sample.jsonl', '--out', path.join(dir, 'cross')]),
    ).toBe(2);
    expect(io.err()).toContain(
      "params of strategy cross-demo (the config's bot.params are for market-maker and were not used: give --params <yaml>)",
    );
    expect(io.err()).toContain('strategy.params.symbol');
  });

  it('says which file it cannot read, with a config exit code', async () => {
    const io = captureOutput();
    const code = await runCli(['backtest', '--data', 'no/such/file.jsonl', '--out', tempDir()]);
    expect(code).toBe(2);
    expect(io.err()).toContain('BACKTEST_DATA_UNREADABLE');
  });
});

describe('tradebot history fetch', () => {
  it('fetches the embedded exchange trades of a window into a history file and replays it', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'h.jsonl');
    const io = captureOutput();
    const code = await runCli([
      'history',
      'fetch',
      '--config',
      'backtest/data/sample-sim.yaml',
      '--symbol',
      'RAIN-NYC-2026-12-01',
      '--from',
      '2026-11-30T14:00:00Z',
      '--to',
      '2026-11-30T14:05:00Z',
      '--out',
      file,
      '--page-size',
      '40',
      '--pause-ms',
      '0',
    ]);
    expect(code, io.err()).toBe(0);
    const line = JSON.parse(await io.waitForLine((l) => l.includes('history.fetched'))) as {
      trades: number;
      pages: number;
      busted: number;
    };
    expect(line.trades).toBeGreaterThan(10);
    expect(line.pages).toBe(Math.ceil(line.trades / 40) + (line.trades % 40 === 0 ? 1 : 0));
    expect(readFileSync(file, 'utf8').trimEnd().split('\n')).toHaveLength(line.trades + 1);
    const params = path.join(dir, 'params.yaml');
    writeFileSync(params, 'symbols: [RAIN-NYC-2026-12-01]\nhalfSpread: "0.02"\n');
    const replay = await runCli(['backtest', '--data', file, '--params', params, '--out', path.join(dir, 'out')]);
    expect(replay, io.err()).toBe(0);
    const report = JSON.parse(readFileSync(path.join(dir, 'out', 'report.json'), 'utf8')) as {
      events: number;
      params: { halfSpread: string };
    };
    expect(report.events).toBe(line.trades);
    expect(report.params.halfSpread).toBe('0.02');
  });
});
