/**
 * The out-of-sample windows' equity curves joined into one: each window started from the same starting cash
 * (its positions opened flat), so window k's curve is lifted by what the windows before it made, and its first
 * sample (its start, which repeats the previous window's end) is dropped. The drawdown is taken over every
 * joined sample; returns (sharpe, sortino) once per `periodMs` from the first window's start, with the
 * sampler's own rule (metrics/period-returns.ts): a window's last sample, when it comes less than an interval
 * after the one before, is that run's closing sample. With one window this gives the window's
 * own figures. Position, price and fill series are joined as they are; every series is then decimated to
 * `maxPoints` for the charts, as a backtest's are.
 */
import { Decimal, ZERO } from '../../src/domain/decimal.ts';
import { DrawdownTracker, PeriodReturns, type ReturnStats } from '../metrics/index.ts';
import type { BacktestSeries, FillPoint, SeriesPoint } from '../report/backtest-result.ts';
import { Decimator } from '../results/decimator.ts';

export interface SeriesSegment {
  /** The window's start (epoch ms). */
  readonly from: number;
  readonly series: BacktestSeries;
}

export interface StitchedCurve {
  readonly returns: ReturnStats;
  readonly drawdown: DrawdownTracker;
  /** Starting cash, and the joined curve's last equity. */
  readonly start: Decimal;
  readonly end: Decimal;
  readonly series: BacktestSeries;
}

function decimate<T>(points: readonly T[], maxPoints: number): T[] {
  const d = new Decimator<T>(maxPoints);
  for (const p of points) d.add(p);
  return d.values();
}

function joinBySymbol(
  segments: readonly SeriesSegment[],
  pick: (s: BacktestSeries) => Readonly<Record<string, readonly SeriesPoint[]>>,
  maxPoints: number,
): Record<string, SeriesPoint[]> {
  const joined = new Map<string, SeriesPoint[]>();
  for (const segment of segments) {
    for (const [symbol, points] of Object.entries(pick(segment.series))) {
      const list = joined.get(symbol) ?? [];
      list.push(...points);
      joined.set(symbol, list);
    }
  }
  return Object.fromEntries([...joined].map(([symbol, points]) => [symbol, decimate(points, maxPoints)]));
}

export function stitchCurves(
  segments: readonly SeriesSegment[],
  startingCash: Decimal,
  periods: { readonly intervalMs: number; readonly periodMs: number },
  maxPoints: number,
): StitchedCurve {
  const { intervalMs, periodMs } = periods;
  const periodReturns = new PeriodReturns(segments[0]?.from ?? 0, periodMs);
  const drawdown = new DrawdownTracker();
  const equity: SeriesPoint[] = [];
  const underwater: SeriesPoint[] = [];
  let offset = ZERO;
  let end = startingCash;
  segments.forEach((segment, k) => {
    const points = segment.series.equity;
    let last = startingCash;
    points.forEach((point, i) => {
      last = new Decimal(point.v);
      if (k > 0 && i === 0 && point.t === segment.from) return;
      const value = last.plus(offset);
      const previous = points[i - 1];
      const closing = i === points.length - 1 && i > 0 && previous !== undefined && point.t - previous.t < intervalMs;
      periodReturns.add(point.t, value, closing);
      drawdown.add(value);
      equity.push({ t: point.t, v: value.toString() });
      underwater.push({ t: point.t, v: drawdown.current().toString() });
    });
    end = last.plus(offset);
    offset = end.minus(startingCash);
  });
  const fills: FillPoint[] = segments.flatMap((s) => [...s.series.fills]);
  return {
    returns: periodReturns.stats,
    drawdown,
    start: startingCash,
    end,
    series: {
      equity: decimate(equity, maxPoints),
      drawdown: decimate(underwater, maxPoints),
      position: joinBySymbol(segments, (s) => s.position, maxPoints),
      price: joinBySymbol(segments, (s) => s.price, maxPoints),
      fills: decimate(fills, maxPoints),
    },
  };
}
