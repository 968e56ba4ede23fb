/**
 * What the pipeline needs from the portfolio: apply fills, mark prices, settle, read positions and PnL,
 * reconcile with the exchange. The engine's Portfolio implements it; reports read its snapshots.
 */
import type { Decimal } from '../domain/decimal.ts';
import type { Balance, Position } from '../domain/index.ts';
import type { Fill } from './orders/index.ts';
import type { Portfolio } from './portfolio/index.ts';
import { sumDecimals } from '../domain/decimal.ts';

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

/** The engine's Portfolio seen through the port. */
export function portfolioPort(portfolio: Portfolio): PortfolioPort {
  return {
    applyFill: (fill) => void portfolio.applyFill(fill),
    mark: (symbol, price) => portfolio.mark(symbol, price),
    settle: (symbol, price) => portfolio.settle(symbol, price),
    // quantities only: risk and strategies ask on every event, valuing the whole portfolio each time is waste
    positions: () => portfolio.quantities().filter((p) => !p.qty.isZero()),
    position: (symbol, account) =>
      sumDecimals(
        portfolio
          .quantities()
          .filter((p) => p.symbol === symbol && (account === undefined || p.account === account))
          .map((p) => p.qty),
      ),
    dailyPnl: () => {
      const totals = portfolio.snapshot().totals;
      return totals.realizedPnl.plus(totals.unrealizedPnl).minus(totals.fees);
    },
    reconcile: (positions, balances) => {
      const result = portfolio.reconcile(positions, balances);
      return [
        ...result.positions.map((d) => `${d.account} ${d.symbol}: local position ${d.localQty.toString()}, exchange ${d.exchangeQty.toString()}`),
        ...result.cash.map((d) => `${d.account}: local cash ${d.localCash.toString()}, exchange ${d.exchangeCash.toString()}`),
      ];
    },
  };
}
