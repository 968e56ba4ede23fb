/**
 * Backtest metrics on known inputs: sharpe and sortino (per-period returns; annualised only for daily
 * returns), the period chosen from the data's span, the reasons a ratio is null, the sampler's returns per
 * period, maximum drawdown as money and fraction, turnover; and the series decimation the charts get.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/domain/decimal.ts';
import {
  choosePeriod,
  DrawdownTracker,
  enough,
  maxDrawdown,
  MIN_RETURNS,
  periodsPerYear,
  periodText,
  ratioReasons,
  ReturnStats,
  sharpe,
  sortino,
  turnover,
} from '../../backtest/metrics/index.ts';
import { Decimator } from '../../backtest/results/decimator.ts';
import { EquitySampler } from '../../backtest/results/sampler.ts';
import { SeriesCollector } from '../../backtest/results/series.ts';
import { VirtualClock } from '../../src/engine/clock.ts';
import { Portfolio } from '../../src/engine/portfolio/index.ts';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

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

  it('picks the period of the returns from the span of the data: days (annualised) for long data, else hours, else the interval', () => {
    expect(choosePeriod(45 * MIN, MIN)).toEqual({ period: 'interval', periodMs: MIN, annualised: false, periodsPerYear: null });
    expect(choosePeriod(3 * DAY, MIN)).toEqual({ period: 'hour', periodMs: HOUR, annualised: false, periodsPerYear: null });
    expect(choosePeriod(19 * HOUR, MIN).period).toBe('interval');
    expect(choosePeriod(30 * DAY, MIN)).toEqual({ period: 'day', periodMs: DAY, annualised: true, periodsPerYear: 365 });
    // an interval of an hour or more is never cut into hours
    expect(choosePeriod(3 * DAY, 2 * HOUR)).toEqual({ period: 'interval', periodMs: 2 * HOUR, annualised: false, periodsPerYear: null });
    expect([periodText(MIN), periodText(HOUR), periodText(DAY), periodText(1500)]).toEqual(['1 min', '1 h', '1 day', '1500 ms']);
  });

  it('gives no ratio from fewer than MIN_RETURNS returns, and says why a ratio is null', () => {
    const few = ReturnStats.of(d(['0.01', '-0.02', '0.03', '0']));
    const period = choosePeriod(4 * MIN, MIN);
    expect(enough(few, sharpe(few, new Decimal(1)))).toBeUndefined();
    expect(ratioReasons(few, period, { sharpe: undefined, sortino: undefined })).toEqual({
      sharpe: `4 returns of 1 min: fewer than ${MIN_RETURNS}, too few to mean anything`,
      sortino: `4 returns of 1 min: fewer than ${MIN_RETURNS}, too few to mean anything`,
    });
    const winning = ReturnStats.of(d(Array.from({ length: MIN_RETURNS }, (_, i) => (i % 2 === 0 ? '0.01' : '0.02'))));
    const ratios = { sharpe: enough(winning, sharpe(winning, new Decimal(1))), sortino: enough(winning, sortino(winning, new Decimal(1))) };
    expect(ratios.sharpe?.toDecimalPlaces(4).toString()).toBe('2.924');
    expect(ratioReasons(winning, period, ratios)).toEqual({ sortino: `none of the ${MIN_RETURNS} returns of 1 min lost money` });
  });

  it('takes the returns once per period from the equity samples, stretching the last period over the closing part', () => {
    const clock = new VirtualClock(0);
    const portfolio = new Portfolio({ clock, startingCash: { acct: new Decimal(100) } });
    const sampler = new EquitySampler({
      portfolio,
      intervalMs: MIN,
      start: 0,
      symbols: ['S'],
      series: new SeriesCollector(['S'], 100),
      prices: () => new Map(),
      returnsPeriodMs: HOUR,
    });
    portfolio.applyFill({ account: 'acct', symbol: 'S', side: 'BUY', qty: new Decimal(10), price: new Decimal('0.5'), time: 0 });
    // equity 100 at 0; the mark moves every minute, but only the hour boundaries make returns
    for (let minute = 0; minute <= 3 * 60; minute++) {
      portfolio.mark('S', new Decimal(minute % 60 === 0 ? '0.5' : '0.9').plus(new Decimal(minute).div(1000)));
      sampler.sampleNext();
    }
    sampler.finish(3 * HOUR + 30 * MIN);
    // boundaries 0, 1 h, 2 h, 3 h (equity 100 + 0.6 per hour there); the closing 30 min stretches the last hour
    expect(sampler.returns.count).toBe(3);
    const e = d(['100', '100.6', '101.2', '101.8']);
    const expected = e.slice(1).reduce((sum, x, i) => sum.plus(x.div(e[i] as Decimal).minus(1)), new Decimal(0));
    expect(sampler.returns.sum.toString()).toBe(expected.toString());
    expect(sampler.samples).toBe(3 * 60 + 2);
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
