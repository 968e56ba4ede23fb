/**
 * The period sharpe and sortino are computed over, chosen from the span of the data so that a ratio means
 * something for any length of history: daily returns, annualised by sqrt(365), when the data spans at least
 * MIN_RETURNS days; else hourly returns when it spans at least MIN_RETURNS hours (and the metrics interval is
 * shorter than an hour); else the metrics interval's own returns. Hourly and per-interval ratios are NOT
 * annualised (scaling 45 one-minute returns by sqrt(525,600) claims a year from 45 minutes). With fewer than
 * MIN_RETURNS returns a ratio is null, and `ratioReasons` says why.
 */
import { Decimal } from '../../src/domain/decimal.ts';
import type { ReturnStats } from './returns.ts';

/** Returns a ratio needs before it is given (fewer: null, with the reason). */
export const MIN_RETURNS = 20;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type RatioPeriodName = 'day' | 'hour' | 'interval';

export interface RatioPeriod {
  readonly period: RatioPeriodName;
  readonly periodMs: number;
  /** True only for daily returns: ratios scaled by sqrt(365) (event contracts trade every day). */
  readonly annualised: boolean;
  /** 365 when annualised, else null. */
  readonly periodsPerYear: number | null;
}

export function choosePeriod(spanMs: number, intervalMs: number): RatioPeriod {
  if (spanMs >= MIN_RETURNS * DAY_MS && intervalMs <= DAY_MS)
    return { period: 'day', periodMs: DAY_MS, annualised: true, periodsPerYear: 365 };
  if (spanMs >= MIN_RETURNS * HOUR_MS && intervalMs < HOUR_MS)
    return { period: 'hour', periodMs: HOUR_MS, annualised: false, periodsPerYear: null };
  return { period: 'interval', periodMs: intervalMs, annualised: false, periodsPerYear: null };
}

/** `1 day`, `1 h`, `1 min`, `30 s`, `250 ms`: a period's length for people. */
export function periodText(ms: number): string {
  const units: readonly [number, string][] = [
    [DAY_MS, 'day'],
    [HOUR_MS, 'h'],
    [60_000, 'min'],
    [1000, 's'],
  ];
  for (const [size, unit] of units) if (ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}

/** Why sharpe and sortino are null, when they are (keys only for the null ones). */
export function ratioReasons(
  stats: ReturnStats,
  period: RatioPeriod,
  values: { sharpe: Decimal | undefined; sortino: Decimal | undefined },
): Record<string, string> {
  const per = periodText(period.periodMs);
  const reasons: Record<string, string> = {};
  const few =
    stats.count < MIN_RETURNS ? `${stats.count} returns of ${per}: fewer than ${MIN_RETURNS}, too few to mean anything` : undefined;
  if (values.sharpe === undefined) reasons['sharpe'] = few ?? `the ${stats.count} returns of ${per} do not vary`;
  if (values.sortino === undefined) reasons['sortino'] = few ?? `none of the ${stats.count} returns of ${per} lost money`;
  return reasons;
}

/** The ratio with MIN_RETURNS enforced: undefined with fewer returns. */
export function enough(stats: ReturnStats, ratio: Decimal | undefined): Decimal | undefined {
  return stats.count < MIN_RETURNS ? undefined : ratio;
}

/** sqrt-scaling factor's argument for sharpe/sortino: periods per year when annualised, else 1 (no scaling). */
export function scaleOf(period: RatioPeriod): Decimal {
  return new Decimal(period.periodsPerYear ?? 1);
}
