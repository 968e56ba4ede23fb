/**
 * What the pipeline needs from the portfolio: apply fills, mark prices, settle, read positions and PnL,
 * reconcile with the exchange. The engine's Portfolio implements it; reports read its snapshots.
 */
import type { Decimal } from '../domain/decimal.ts';
import type { Balance, Position } from '../domain/index.ts';
import type { Fill } from './orders/index.ts';

export interface PortfolioPosition {
  readonly account: string;
  readonly symbol: string;
  readonly qty: Decimal;
}

export interface PortfolioPort {
  applyFill(fill: Fill): void;
  mark(symbol: string, price: Decimal): void;
  settle(symbol: string, price: Decimal, time: number): void;
  positions(): readonly PortfolioPosition[];
  /** Net position in `symbol` for `account`, or across accounts. */
  position(symbol: string, account?: string): Decimal;
  /** Realized + unrealized PnL minus fees since the start of the run (the day). */
  dailyPnl(): Decimal;
  /** Takes the exchange's positions and balances as truth; returns human-readable differences. */
  reconcile(positions: readonly Position[], balances: readonly Balance[]): readonly string[];
}
