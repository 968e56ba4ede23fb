// Chart data: whole-second, strictly increasing points; bounded size; drawdown below zero with its deepest
// point kept; positions carried over the run; fill markers on price times, labelled or grouped.
import { describe, expect, it } from 'vitest';
import type { FillPoint, SeriesPoint } from '../../../backtest/report/backtest-result.ts';
import { chartData, precisionOf } from '../../../backtest/report/chart-data.ts';
import { downsample } from '../../../backtest/report/downsample.ts';
import { fillMarkers, snapTime } from '../../../backtest/report/markers.ts';
import { formatNumber, keyFigures, refusalLines, runDetails } from '../../../backtest/report/figures.ts';
import { formatPeriod } from '../../../backtest/report/period.ts';
import { fixtureResult } from './fixture.ts';

const T0 = Date.UTC(2026, 10, 2, 14, 0, 0);
const pts = (values: readonly [number, string][]): SeriesPoint[] => values.map(([dt, v]) => ({ t: T0 + dt, v }));

function strictlyIncreasing(times: readonly number[]): boolean {
  return times.every((t, i) => i === 0 || t > (times[i - 1] ?? -Infinity));
}

describe('downsample', () => {
  it('keeps one point per second (the last), sorted, dropping non-numbers', () => {
    const out = downsample(
      pts([
        [1500, '2'],
        [100, '1'],
        [900, '1.5'],
        [2000, 'x'],
        [3000, '3'],
      ]),
      100,
      'last',
    );
    expect(out).toEqual([
      { time: T0 / 1000, value: 1.5 },
      { time: T0 / 1000 + 1, value: 2 },
      { time: T0 / 1000 + 3, value: 3 },
    ]);
  });

  it('bounds the number of points and keeps the extreme when asked', () => {
    const series = Array.from({ length: 10_000 }, (_, i) => ({ t: T0 + i * 1000, v: i === 5_555 ? '-99' : String(Math.sin(i)) }));
    const out = downsample(series, 500, 'extreme');
    expect(out.length).toBeLessThanOrEqual(500);
    expect(strictlyIncreasing(out.map((p) => p.time))).toBe(true);
    expect(out.some((p) => p.value === -99)).toBe(true);
  });
});

describe('fill markers', () => {
  const price = [10, 20, 30].map((time) => ({ time, value: 0.5 }));

  it('snaps to the last price time at or before the fill', () => {
    expect(snapTime([10, 20, 30], 25)).toBe(20);
    expect(snapTime([10, 20, 30], 5)).toBe(10);
    expect(snapTime([10, 20, 30], 99)).toBe(30);
  });

  it('labels few fills and groups many per bucket and side, counting them', () => {
    const few: FillPoint[] = [{ t: 21_000, symbol: 'X', side: 'BUY', price: '0.55', qty: '5' }];
    expect(fillMarkers(few, price, { maxMarkers: 10, labelUpTo: 5 })).toEqual([{ time: 20, side: 'BUY', text: 'B 5 @ 0.55', count: 1 }]);
    const many: FillPoint[] = Array.from({ length: 100 }, (_, i) => ({
      t: 10_000 + i * 200,
      symbol: 'X',
      side: i % 2 === 0 ? 'BUY' : 'SELL',
      price: '0.5',
      qty: '1',
    }));
    const grouped = fillMarkers(many, price, { maxMarkers: 10, labelUpTo: 5 });
    expect(grouped.length).toBeLessThanOrEqual(10);
    expect(grouped.reduce((sum, m) => sum + m.count, 0)).toBe(100);
    expect(grouped.every((m) => m.text === '')).toBe(true);
    expect(strictlyIncreasing([...new Set(grouped.map((m) => m.time))])).toBe(true);
  });
});

describe('chartData', () => {
  it('draws drawdown below zero whatever its sign, with axis precision from the decimals', () => {
    const data = chartData({
      equity: pts([[0, '100.5']]),
      drawdown: pts([
        [0, '0'],
        [1000, '2.25'],
        [2000, '-3.5'],
      ]),
      position: {},
      price: {},
      fills: [],
    });
    expect(data.drawdown.points.map((p) => p.value)).toEqual([0, -2.25, -3.5]);
    expect(data.drawdown.precision).toBe(2);
    expect(data.equity.precision).toBe(2);
  });

  it('carries positions over the whole run, flat before the first change', () => {
    const data = chartData({
      equity: pts([
        [0, '1'],
        [10_000, '1'],
        [20_000, '1'],
      ]),
      drawdown: [],
      position: {
        X: pts([
          [5_000, '3'],
          [15_000, '-2'],
        ]),
      },
      price: {},
      fills: [],
    });
    expect(data.positions[0]?.points.map((p) => [p.time - T0 / 1000, p.value])).toEqual([
      [0, 0],
      [5, 3],
      [10, 3],
      [15, -2],
      [20, -2],
    ]);
  });

  it('draws a price line from fills when a symbol has no price series, with one marker per fill', () => {
    const fills: FillPoint[] = [
      { t: T0 + 1000, symbol: 'Y', side: 'BUY', price: '0.41', qty: '2' },
      { t: T0 + 2000, symbol: 'Y', side: 'SELL', price: '0.43', qty: '2' },
    ];
    const data = chartData({ equity: [], drawdown: [], position: {}, price: {}, fills });
    expect(data.prices.map((p) => p.symbol)).toEqual(['Y']);
    expect(data.prices[0]?.points.map((p) => p.value)).toEqual([0.41, 0.43]);
    expect(data.prices[0]?.markers.map((m) => m.side)).toEqual(['BUY', 'SELL']);
  });

  it('gives each fill its own second on a price line sampled once a minute', () => {
    const fills: FillPoint[] = [{ t: T0 + 75_000, symbol: 'Z', side: 'SELL', price: '0.52', qty: '1' }];
    const data = chartData({
      equity: [],
      drawdown: [],
      position: {},
      price: {
        Z: pts([
          [0, '0.50'],
          [60_000, '0.51'],
          [120_000, '0.53'],
        ]),
      },
      fills,
    });
    const price = data.prices[0];
    expect(price?.points.map((p) => [p.time - T0 / 1000, p.value])).toEqual([
      [0, 0.5],
      [60, 0.51],
      [75, 0.51],
      [120, 0.53],
    ]);
    expect(price?.markers.map((m) => m.time - T0 / 1000)).toEqual([75]);
  });

  it('keeps every series of a large run bounded and strictly increasing', () => {
    const data = chartData(fixtureResult({ points: 20_000 }).series, { maxPoints: 1000 });
    for (const line of [data.equity, data.drawdown, ...data.positions, ...data.prices]) {
      expect(line.points.length).toBeLessThanOrEqual(1000 + 2);
      expect(strictlyIncreasing(line.points.map((p) => p.time))).toBe(true);
    }
  });

  it('reads precision from decimal strings, clamped', () => {
    expect(precisionOf(['1', '0.5', '0.125'], 2, 6)).toBe(3);
    expect(precisionOf(['1'], 2, 6)).toBe(2);
    expect(precisionOf(['0.1234567891'], 0, 4)).toBe(4);
  });
});

describe('header figures', () => {
  it('formats decimals exactly with grouping, and ratios to 3 places', () => {
    expect(formatNumber('1234567.50')).toBe('1,234,567.50');
    expect(formatNumber('-0.1234567891')).toBe('-0.123457');
    expect(formatNumber(1.234567, 3)).toBe('1.235');
    expect(formatNumber(null)).toBe('—');
    expect(formatNumber('n/a')).toBe('n/a');
  });

  it('lists refusals by code, largest first, and colours PnL by sign', () => {
    expect(refusalLines({ B: 1, A: 4, C: 0 })).toEqual(['A: 4', 'B: 1']);
    const figures = keyFigures(fixtureResult({ points: 10 }).report);
    expect(figures.find((f) => f.label === 'Realized')?.tone).toBe('positive');
    expect(figures.find((f) => f.label === 'Refusals')?.value).toBe('5');
  });

  it('shows missing or null fields as "—" and a data object as key = value lines', () => {
    const report = { pnl: { total: '3.5' }, sharpe: null, refusals: {}, data: { file: 'day.jsonl', symbols: ['A', 'B'] } };
    const figures = keyFigures(report);
    expect(figures.find((f) => f.label === 'PnL total')?.value).toBe('3.5');
    expect(figures.find((f) => f.label === 'Realized')?.value).toBe('—');
    expect(figures.find((f) => f.label === 'Sharpe')?.value).toBe('—');
    const withPeriod = keyFigures({
      ...report,
      returns: { period: 'interval', periodMs: 60_000, annualised: false, count: 4, whyNull: { sharpe: '4 returns of 1 min: too few' } },
    });
    expect(withPeriod.find((f) => f.label === 'Sharpe')?.details).toEqual([
      'per 1 min, not annualised',
      '4 returns',
      '4 returns of 1 min: too few',
    ]);
    const modelled = keyFigures({
      ...report,
      realism: {
        book: 'synthetic',
        bookUpdates: 316,
        secondsBetweenBookUpdates: 8.494,
        fillModel: { tradeThrough: 'print', queueAheadModel: { model: 'volume', windowMs: 30000 } },
      },
    });
    expect(modelled.find((f) => f.label === 'Fill model')).toMatchObject({
      value: 'print',
      details: [
        'trade-through capped by the print',
        'queue ahead: volume over 30000 ms',
        'synthetic book: 316 updates',
        'one every 8.49 s of market time',
      ],
    });
    expect(figures.find((f) => f.label === 'Fill model')).toBeUndefined();
    expect(figures.find((f) => f.label === 'Refusals')?.details).toEqual(['none']);
    expect(figures.find((f) => f.label === 'Events')?.details).toEqual([]);
    expect(runDetails(report).find((d) => d.label === 'Data')?.value).toBe('file = day.jsonl\nsymbols = ["A","B"]');
  });

  it('states the period in UTC with its duration', () => {
    expect(formatPeriod({ from: T0, to: T0 + 3_723_000 })).toBe('2026-11-02 14:00:00 → 15:02:03 UTC (1h 2m 3s)');
    expect(formatPeriod(undefined)).toBe('');
  });
});
