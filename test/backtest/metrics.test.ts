/**
 * Backtest metrics on known inputs: sharpe and sortino (per-interval returns, annualised), maximum
 * drawdown as money and fraction, turnover; and the series decimation the charts get.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.ts';
import { DrawdownTracker, maxDrawdown, periodsPerYear, ReturnStats, sharpe, sortino, turnover } from '../../backtest/metrics/index.ts';
import { Decimator } from '../../backtest/results/decimator.ts';

const d = (values: readonly (string | number)[]) => values.map((v) => new Decimal(v));

describe('metrics', () => {
  it('computes sharpe as mean over sample standard deviation, annualised by sqrt(periods per year)', () => {
    const stats = ReturnStats.of(d(['0.01', '-0.02', '0.03', '0']));
    expect(sharpe(stats, new Decimal(1))?.toDecimalPlaces(6).toString()).toBe('0.240192');
    expect(sharpe(stats, new Decimal(4))?.toDecimalPlaces(6).toString()).toBe('0.480384');
    expect(sharpe(ReturnStats.of(d(['0.01'])), new Decimal(1))).toBeUndefined();
    expect(sharpe(ReturnStats.of(d(['0.01', '0.01'])), new Decimal(1))).toBeUndefined();
  });

  it('computes sortino from the downside deviation of the returns', () => {
    const stats = ReturnStats.of(d(['0.01', '-0.02', '0.03', '0']));
    expect(sortino(stats, new Decimal(1))?.toString()).toBe('0.5');
    expect(sortino(ReturnStats.of(d(['0.01', '0.02'])), new Decimal(1))).toBeUndefined();
  });

  it('turns equity samples into returns and annualises by the sampling interval', () => {
    const stats = new ReturnStats();
    for (const e of d([100, 110, 99])) stats.addEquity(e);
    expect(stats.count).toBe(2);
    expect(stats.sum.toString()).toBe('0');
    expect(periodsPerYear(60_000).toString()).toBe('525600');
  });

  it("stretches the last interval over a run's closing part of one instead of counting a short period", () => {
    const stats = new ReturnStats();
    for (const e of d([100, 110, 99])) stats.addEquity(e);
    stats.extendLastInterval(new Decimal(121)); // 110 -> 121 instead of 110 -> 99
    expect(stats.count).toBe(2);
    expect(stats.sum.toString()).toBe('0.2');
    expect(stats.sumSquares.toString()).toBe('0.02');
    expect(stats.downsideSquares.toString()).toBe('0');
    const again = new ReturnStats();
    for (const e of d([100, 110, 121])) again.addEquity(e);
    expect({ count: again.count, sum: again.sum.toString(), sumSquares: again.sumSquares.toString() }).toEqual({
      count: 2,
      sum: '0.2',
      sumSquares: '0.02',
    });
    const first = new ReturnStats();
    first.extendLastInterval(new Decimal(100)); // nothing to stretch: the first equity
    first.extendLastInterval(new Decimal(90)); // one short run: its only return
    expect(first.count).toBe(1);
    expect(first.downsideSquares.toString()).toBe('0.01');
  });

  it('measures the maximum drawdown as money and as a fraction of the peak', () => {
    expect(maxDrawdown(d([100, 120, 90, 130, 100])).toString()).toBe('30');
    const tracker = new DrawdownTracker();
    for (const e of d([100, 120, 90, 130, 100])) tracker.add(e);
    expect(tracker.maxFraction.toString()).toBe('0.25');
    expect(tracker.current().toString()).toBe('-30');
  });

  it('sums traded notional for turnover', () => {
    expect(
      turnover([
        { qty: new Decimal(2), price: new Decimal('0.4') },
        { qty: new Decimal(3), price: new Decimal('0.5') },
      ]).toString(),
    ).toBe('2.3');
  });
});

describe('Decimator', () => {
  it('keeps at most max (+ the last) evenly spaced points, first and last included', () => {
    const decimator = new Decimator<number>(100);
    for (let i = 0; i < 100_000; i++) decimator.add(i);
    const values = decimator.values();
    expect(values.length).toBeLessThanOrEqual(101);
    expect(values.length).toBeGreaterThan(50);
    expect(values[0]).toBe(0);
    expect(values.at(-1)).toBe(99_999);
    const gaps = new Set(
      values
        .slice(0, -1)
        .map((v, i) => (values[i + 1] as number) - v)
        .slice(0, -1),
    );
    expect(gaps.size).toBe(1);
  });
});
