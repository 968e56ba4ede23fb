/**
 * The chart series of a backtest (BacktestResult.series, shared with the report writer): equity and
 * drawdown (equity - running peak, <= 0), position and price per symbol, sampled every metrics interval
 * of market time, and every fill; each series decimated to at most ~maxPoints points. t = epoch ms,
 * v = decimal string. Besides, the first FILL_TABLE_ROWS fills undecimated, for the report's fills table.
 */
import type { Decimal } from '../../src/domain/decimal.ts';
import { Decimator } from './decimator.ts';

export interface SeriesPoint {
  readonly t: number;
  readonly v: string;
}

export interface FillPoint {
  readonly t: number;
  readonly symbol: string;
  readonly side: 'BUY' | 'SELL';
  readonly price: string;
  readonly qty: string;
  readonly fee?: string;
  readonly liquidity?: string;
  readonly label?: string;
}

/** Fills the report's table shows (the rest are in fills.csv). */
export const FILL_TABLE_ROWS = 500;

export interface BacktestSeries {
  readonly equity: SeriesPoint[];
  readonly drawdown: SeriesPoint[];
  readonly position: Record<string, SeriesPoint[]>;
  readonly price: Record<string, SeriesPoint[]>;
  readonly fills: FillPoint[];
  readonly firstFills: FillPoint[];
}

export class SeriesCollector {
  private readonly equity: Decimator<SeriesPoint>;
  private readonly drawdown: Decimator<SeriesPoint>;
  private readonly position = new Map<string, Decimator<SeriesPoint>>();
  private readonly price = new Map<string, Decimator<SeriesPoint>>();
  private readonly fills: Decimator<FillPoint>;
  private readonly firstFills: FillPoint[] = [];

  constructor(
    private readonly symbols: readonly string[],
    private readonly maxPoints: number,
  ) {
    this.equity = new Decimator(maxPoints);
    this.drawdown = new Decimator(maxPoints);
    this.fills = new Decimator(maxPoints);
    for (const s of symbols) {
      this.position.set(s, new Decimator(maxPoints));
      this.price.set(s, new Decimator(maxPoints));
    }
  }

  sample(
    t: number,
    equity: Decimal,
    drawdown: Decimal,
    positions: ReadonlyMap<string, Decimal>,
    prices: ReadonlyMap<string, Decimal>,
  ): void {
    this.equity.add({ t, v: equity.toString() });
    this.drawdown.add({ t, v: drawdown.toString() });
    for (const s of this.symbols) {
      const q = positions.get(s);
      if (q !== undefined) this.position.get(s)?.add({ t, v: q.toString() });
      const p = prices.get(s);
      if (p !== undefined) this.price.get(s)?.add({ t, v: p.toString() });
    }
  }

  fill(point: FillPoint): void {
    this.fills.add(point);
    if (this.firstFills.length < FILL_TABLE_ROWS) this.firstFills.push(point);
  }

  result(): BacktestSeries {
    const record = (map: Map<string, Decimator<SeriesPoint>>) => Object.fromEntries([...map].map(([s, d]) => [s, d.values()]));
    return {
      equity: this.equity.values(),
      drawdown: this.drawdown.values(),
      position: record(this.position),
      price: record(this.price),
      fills: this.fills.values(),
      firstFills: [...this.firstFills],
    };
  }
}
