/**
 * The shape `runBacktest` returns and the report writers read (the contract shared by the replay engine,
 * the HTML report and parameter sweeps): the `report.json` object plus the time series behind the charts.
 * Times are epoch milliseconds; values are decimal strings, exactly as the portfolio computed them.
 */

/** One point of a time series: `t` epoch ms, `v` a decimal string. */
export interface SeriesPoint {
  readonly t: number;
  readonly v: string;
}

export type Side = 'BUY' | 'SELL';

export interface FillPoint {
  readonly t: number;
  readonly symbol: string;
  readonly side: Side;
  readonly price: string;
  readonly qty: string;
  /** The fee booked for the fill (decimal string), when known. */
  readonly fee?: string;
  /** maker, taker, or '' when unknown. */
  readonly liquidity?: string;
  /** The order's label, when it has one. */
  readonly label?: string;
}

export interface BacktestSeries {
  readonly equity: readonly SeriesPoint[];
  readonly drawdown: readonly SeriesPoint[];
  /** Position (signed contracts) per symbol. */
  readonly position: Readonly<Record<string, readonly SeriesPoint[]>>;
  /** Market price (last trade) per symbol. */
  readonly price: Readonly<Record<string, readonly SeriesPoint[]>>;
  readonly fills: readonly FillPoint[];
  /** The run's first fills in time order, undecimated (the report's fills table); absent: `fills` stands in. */
  readonly firstFills?: readonly FillPoint[];
}

/** A key figure as report.json holds it: a decimal string, a number, or null when undefined (sharpe of one point). */
export type Figure = string | number | null;

/**
 * report.json as the report and sweeps take it: a plain JSON object. They read the documented fields by
 * path (see `ReportFields`) and show a missing or null one as "—", so the engine may add or reshape
 * fields without breaking them.
 */
export type BacktestReport = Readonly<Record<string, unknown>>;

/** The documented fields of report.json (a guide for fixtures and readers; the engine may add more). */
export interface ReportFields {
  readonly pnl: { readonly total: Figure; readonly realized: Figure; readonly unrealized: Figure };
  readonly fees: Figure;
  readonly fills: Figure;
  readonly orders: Figure;
  /** Risk refusals counted by reason code. */
  readonly refusals: Readonly<Record<string, number>>;
  readonly maxDrawdown: Figure;
  readonly sharpe: Figure;
  readonly sortino: Figure;
  readonly turnover: Figure;
  readonly events: Figure;
  readonly eventsPerSecond: Figure;
  readonly strategy: unknown;
  readonly params: unknown;
  readonly data: unknown;
  readonly config: unknown;
  readonly [key: string]: unknown;
}

export interface BacktestResult {
  readonly report: BacktestReport;
  readonly series: BacktestSeries;
}
