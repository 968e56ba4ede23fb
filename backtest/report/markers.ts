/**
 * Fill markers for a symbol's price chart. Each marker sits on a time the price line has (the last price
 * point at or before the fill), so lightweight-charts draws it on the line. Few fills get one marker each,
 * labelled `B 5 @ 0.55` when there are few enough to read; many fills are grouped per time bucket and side
 * into one unlabelled marker sized by its count, so a busy day still draws a bounded, readable number.
 * Settlements (and expiries without a settlement price) are marked on the price and equity charts too.
 */
import type { FillPoint, Side } from './backtest-result.ts';
import { bucketWidth, type ChartPoint } from './downsample.ts';

export interface ChartMarker {
  /** UTC seconds, a time of the price series. */
  readonly time: number;
  readonly side: Side;
  readonly text: string;
  /** Fills behind the marker (1 unless grouped). */
  readonly count: number;
  /** A contract's settlement (or its expiry without one) rather than fills: drawn as a circle in the bar. */
  readonly event?: 'settlement' | 'expiry';
}

/** A settlement, or an expiry without a settlement price, to mark on the charts (from report.json). */
export interface SettlementMark {
  readonly symbol: string;
  /** Epoch ms. */
  readonly t: number;
  readonly text: string;
  readonly kind: 'settlement' | 'expiry';
}

/** Settlement markers on a series' points (snapped to the last point at or before each). */
export function settlementMarkers(marks: readonly SettlementMark[], points: readonly ChartPoint[]): ChartMarker[] {
  const times = points.map((p) => p.time);
  if (times.length === 0) return [];
  return marks
    .filter((m) => Number.isFinite(m.t))
    .map((m) => ({ time: snapTime(times, Math.floor(m.t / 1000)), side: 'BUY' as const, text: m.text, count: 1, event: m.kind }));
}

/** Markers in time order (what the charts library expects). */
export function byTime(markers: readonly ChartMarker[]): ChartMarker[] {
  return [...markers].sort((a, b) => a.time - b.time);
}

export interface MarkerOptions {
  /** Above this many fills, fills are grouped per bucket and side. */
  readonly maxMarkers: number;
  /** Up to this many fills, each marker carries a `B 5 @ 0.55` label. */
  readonly labelUpTo: number;
}

/** The time of the last point at or before `time` (the first point when the fill precedes them all). */
export function snapTime(times: readonly number[], time: number): number {
  let lo = 0;
  let hi = times.length - 1;
  let found = times[0] ?? time;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = times[mid] ?? time;
    if (t <= time) {
      found = t;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

const sideLetter = (side: Side): string => (side === 'BUY' ? 'B' : 'S');

/** Markers for one symbol's fills on its price points (both sorted by time in the output). */
export function fillMarkers(fills: readonly FillPoint[], price: readonly ChartPoint[], options: MarkerOptions): ChartMarker[] {
  const times = price.map((p) => p.time);
  const sorted = [...fills].filter((f) => Number.isFinite(f.t)).sort((a, b) => a.t - b.t);
  const seconds = (f: FillPoint) => Math.floor(f.t / 1000);
  if (sorted.length <= options.maxMarkers) {
    const label = sorted.length <= options.labelUpTo;
    return sorted.map((f) => ({
      time: snapTime(times, seconds(f)),
      side: f.side,
      text: label ? `${sideLetter(f.side)} ${f.qty} @ ${f.price}` : '',
      count: 1,
    }));
  }
  const first = sorted[0];
  const last = sorted[sorted.length - 1];
  if (first === undefined || last === undefined) return [];
  // Two sides per bucket: half as many buckets as markers allowed.
  const width = bucketWidth(seconds(first), seconds(last), Math.max(1, Math.floor(options.maxMarkers / 2)));
  const groups = new Map<string, { time: number; side: Side; count: number }>();
  for (const f of sorted) {
    const key = `${Math.floor((seconds(f) - seconds(first)) / width)}:${f.side}`;
    const group = groups.get(key);
    if (group === undefined) groups.set(key, { time: snapTime(times, seconds(f)), side: f.side, count: 1 });
    else group.count++;
  }
  return [...groups.values()].sort((a, b) => a.time - b.time).map((g) => ({ time: g.time, side: g.side, text: '', count: g.count }));
}
