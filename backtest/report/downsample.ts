/**
 * Turns a `{t, v}` series (epoch ms, decimal strings) into chart points (`time` in whole UTC seconds, as
 * lightweight-charts wants, strictly increasing) and keeps it small enough to inline: points that share a
 * bucket (one second, or wider when the run is long) collapse into one. `last` keeps the bucket's last
 * point (equity, positions, prices: the state at the end of the bucket); `extreme` keeps its largest
 * magnitude (drawdown, so the deepest point is never sampled away). Values are display-only floats.
 */
import type { SeriesPoint } from './backtest-result.ts';

export interface ChartPoint {
  /** UTC seconds. */
  readonly time: number;
  readonly value: number;
}

export type BucketPick = 'last' | 'extreme';

/** Parses, sorts by time and drops points whose value is not a finite number. */
export function toChartPoints(series: readonly SeriesPoint[]): ChartPoint[] {
  const points: ChartPoint[] = [];
  for (const p of series) {
    const value = Number(p.v);
    if (Number.isFinite(value) && Number.isFinite(p.t)) points.push({ time: Math.floor(p.t / 1000), value });
  }
  // Array.prototype.sort is stable: points of the same second keep their order, so "last" stays last.
  return points.sort((a, b) => a.time - b.time);
}

function better(current: ChartPoint, candidate: ChartPoint, pick: BucketPick): ChartPoint {
  if (pick === 'last') return candidate;
  return Math.abs(candidate.value) > Math.abs(current.value) ? candidate : current;
}

/** Collapses sorted points into buckets of `widthSeconds`, one point per bucket. */
export function bucketize(points: readonly ChartPoint[], widthSeconds: number, pick: BucketPick): ChartPoint[] {
  const first = points[0];
  if (first === undefined) return [];
  const out: ChartPoint[] = [];
  let bucket = -1;
  for (const p of points) {
    const b = Math.floor((p.time - first.time) / widthSeconds);
    const last = out[out.length - 1];
    if (b === bucket && last !== undefined) out[out.length - 1] = better(last, p, pick);
    else {
      out.push(p);
      bucket = b;
    }
  }
  return out;
}

/** The bucket width (seconds, at least 1) that leaves at most `maxPoints` points over `[from, to]`. */
export function bucketWidth(fromSeconds: number, toSeconds: number, maxPoints: number): number {
  return Math.max(1, Math.ceil((toSeconds - fromSeconds + 1) / Math.max(1, maxPoints)));
}

/** Chart points for a series: one per second, and at most `maxPoints` in all. */
export function downsample(series: readonly SeriesPoint[], maxPoints: number, pick: BucketPick): ChartPoint[] {
  const perSecond = bucketize(toChartPoints(series), 1, pick);
  if (perSecond.length <= maxPoints) return perSecond;
  const first = perSecond[0];
  const last = perSecond[perSecond.length - 1];
  if (first === undefined || last === undefined) return perSecond;
  return bucketize(perSecond, bucketWidth(first.time, last.time, maxPoints), pick);
}
