/**
 * Prepares the data the report's charts draw, from a BacktestResult's series: equity, drawdown (drawn
 * below zero whatever sign the engine uses), position per symbol, and price per symbol with its fill
 * markers. Series are downsampled (see downsample.ts) and each carries the decimal precision its axis
 * should show, read from the decimal strings themselves.
 */
import type { BacktestSeries, FillPoint, SeriesPoint } from './backtest-result.ts';
import { bucketize, bucketWidth, downsample, toChartPoints, type ChartPoint } from './downsample.ts';
import { byTime, fillMarkers, settlementMarkers, type ChartMarker, type SettlementMark } from './markers.ts';

export interface LineData {
  readonly points: readonly ChartPoint[];
  /** Fraction digits for the price axis. */
  readonly precision: number;
}

export interface SymbolLine extends LineData {
  readonly symbol: string;
}

export interface PriceChart extends SymbolLine {
  readonly markers: readonly ChartMarker[];
  readonly fills: number;
}

export interface ChartData {
  readonly equity: LineData;
  /** Settlements and expiries on the equity line. */
  readonly equityMarkers: readonly ChartMarker[];
  readonly drawdown: LineData;
  readonly positions: readonly SymbolLine[];
  readonly prices: readonly PriceChart[];
  /** First and last time of any series, epoch ms (undefined when every series is empty). */
  readonly span: { readonly from: number; readonly to: number } | undefined;
}

export interface ChartDataOptions {
  /** Most points per series (default 4000). */
  readonly maxPoints?: number;
  /** Most fill markers per symbol before grouping (default 200). */
  readonly maxMarkers?: number;
  /** Label each marker when a symbol has at most this many fills (default 12). */
  readonly labelMarkersUpTo?: number;
  /** Settlements and expiries without a settlement price (report.json), marked on the price and equity charts. */
  readonly settlements?: readonly SettlementMark[];
}

/** Largest number of fraction digits among the decimal strings, clamped to `[min, max]`. */
export function precisionOf(values: Iterable<string>, min: number, max: number): number {
  let digits = 0;
  for (const v of values) {
    const match = /^\s*[-+]?\d*\.(\d+)\s*$/.exec(v);
    if (match?.[1] !== undefined) digits = Math.max(digits, match[1].length);
  }
  return Math.min(max, Math.max(min, digits));
}

const valuesOf = (series: readonly SeriesPoint[]): string[] => series.map((p) => p.v);

function line(series: readonly SeriesPoint[], maxPoints: number, min: number, max: number): LineData {
  return { points: downsample(series, maxPoints, 'last'), precision: precisionOf(valuesOf(series), min, max) };
}

/** The value of step `changes` (sorted, one per second) at each of `times`, `initial` before the first. */
function carryForward(changes: readonly ChartPoint[], times: readonly number[], initial: number): ChartPoint[] {
  const points: ChartPoint[] = [];
  let next = 0;
  let value = initial;
  for (const time of times) {
    for (let c = changes[next]; c !== undefined && c.time <= time; c = changes[++next]) value = c.value;
    points.push({ time, value });
  }
  return points;
}

function capped(points: ChartPoint[], maxPoints: number): ChartPoint[] {
  const first = points[0];
  const last = points[points.length - 1];
  return first === undefined || last === undefined || points.length <= maxPoints
    ? points
    : bucketize(points, bucketWidth(first.time, last.time, maxPoints), 'last');
}

const union = (...lists: readonly (readonly number[])[]): number[] => [...new Set(lists.flat())].sort((a, b) => a - b);

/**
 * A position line on the run's time grid (the equity times and the span's ends), the value carried forward
 * from the last change: the step line then spans the whole run and its time axis matches the other charts.
 * Before its first record a position is flat (a backtest starts with none).
 */
function positionLine(symbol: string, series: readonly SeriesPoint[], grid: readonly number[], maxPoints: number): SymbolLine {
  const changes = bucketize(toChartPoints(series), 1, 'last');
  const points = carryForward(
    changes,
    union(
      grid,
      changes.map((p) => p.time),
    ),
    0,
  );
  return { symbol, points: capped(points, maxPoints), precision: precisionOf(valuesOf(series), 0, 4) };
}

function spanOf(series: BacktestSeries): ChartData['span'] {
  let from = Infinity;
  let to = -Infinity;
  const see = (t: number) => {
    if (!Number.isFinite(t)) return;
    from = Math.min(from, t);
    to = Math.max(to, t);
  };
  for (const p of series.equity) see(p.t);
  for (const p of series.drawdown) see(p.t);
  for (const s of Object.values(series.position)) for (const p of s) see(p.t);
  for (const s of Object.values(series.price)) for (const p of s) see(p.t);
  for (const f of series.fills) see(f.t);
  return Number.isFinite(from) ? { from, to } : undefined;
}

function priceChart(
  symbol: string,
  priceSeries: readonly SeriesPoint[],
  fills: readonly FillPoint[],
  options: Required<ChartDataOptions>,
): PriceChart {
  // Without a price series, the fills' own prices draw the line.
  const source = priceSeries.length > 0 ? priceSeries : fills.map((f) => ({ t: f.t, v: f.price }));
  const sampled = line(source, options.maxPoints, 2, 6);
  // The price line also gets a point (the price then, carried forward) at each fill's second, so a fill's
  // marker sits at its own time even when prices are sampled once a minute.
  const fillTimes = fills.filter((f) => Number.isFinite(f.t)).map((f) => Math.floor(f.t / 1000));
  const first = sampled.points[0];
  const points =
    first === undefined
      ? []
      : capped(
          carryForward(
            sampled.points,
            union(
              sampled.points.map((p) => p.time),
              fillTimes.filter((t) => t >= first.time),
            ),
            first.value,
          ),
          options.maxPoints,
        );
  const markers = byTime([
    ...fillMarkers(fills, points, { maxMarkers: options.maxMarkers, labelUpTo: options.labelMarkersUpTo }),
    ...settlementMarkers(
      options.settlements.filter((m) => m.symbol === symbol),
      points,
    ),
  ]);
  return { symbol, points, precision: sampled.precision, markers, fills: fills.length };
}

export function chartData(series: BacktestSeries, options: ChartDataOptions = {}): ChartData {
  const o: Required<ChartDataOptions> = { maxPoints: 4000, maxMarkers: 200, labelMarkersUpTo: 12, settlements: [], ...options };
  const drawdown = series.drawdown.map((p) => ({ t: p.t, v: p.v.trim().replace(/^[-+]/, '') }));
  const drawdownLine: LineData = {
    points: downsample(drawdown, o.maxPoints, 'extreme').map((p) => ({ time: p.time, value: p.value === 0 ? 0 : -p.value })),
    precision: precisionOf(valuesOf(series.drawdown), 2, 2),
  };
  const fillsBySymbol = new Map<string, FillPoint[]>();
  for (const f of series.fills) {
    const list = fillsBySymbol.get(f.symbol);
    if (list === undefined) fillsBySymbol.set(f.symbol, [f]);
    else list.push(f);
  }
  const priceSymbols = [...new Set([...Object.keys(series.price), ...fillsBySymbol.keys()])].sort();
  const positionSymbols = Object.keys(series.position).sort();
  const equity = line(series.equity, o.maxPoints, 2, 2);
  const span = spanOf(series);
  const grid = [
    ...(span === undefined ? [] : [Math.floor(span.from / 1000), Math.floor(span.to / 1000)]),
    ...equity.points.map((p) => p.time),
  ];
  return {
    equity,
    equityMarkers: byTime(
      settlementMarkers(
        o.settlements.map((m) => ({ ...m, text: `${m.symbol} ${m.text}` })),
        equity.points,
      ),
    ),
    drawdown: drawdownLine,
    positions: positionSymbols.map((symbol) => positionLine(symbol, series.position[symbol] ?? [], grid, o.maxPoints)),
    prices: priceSymbols.map((symbol) => priceChart(symbol, series.price[symbol] ?? [], fillsBySymbol.get(symbol) ?? [], o)),
    span,
  };
}
