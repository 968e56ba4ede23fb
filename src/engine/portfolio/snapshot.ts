/**
 * Report views of the ledger as plain objects of Decimals: one position, one account, and totals that add
 * up accounts. Pure functions of the state and the marks; PnL = realized + unrealized - fees, equity =
 * cash + market value.
 */
import { type Decimal, ZERO } from '../../domain/decimal.ts';
import type { EpochMs } from '../../domain/time.ts';
import type { AccountState, Ledger } from './ledger.ts';
import { averagePrice, marketValue, type PositionState } from './position.ts';
import type { AccountSnapshot, PnlTotals, PortfolioSnapshot, PositionSnapshot } from './types.ts';

export function positionSnapshot(ledger: Ledger, account: string, symbol: string, state: PositionState): PositionSnapshot {
  return positionSnapshotAt(account, symbol, state, ledger.mark(symbol));
}

/** The snapshot of a position state at a given mark (a pure function of its arguments). */
export function positionSnapshotAt(account: string, symbol: string, state: PositionState, mark: Decimal | undefined): PositionSnapshot {
  const value = marketValue(state, mark);
  return Object.freeze({
    account,
    symbol,
    qty: state.qty,
    avgPx: averagePrice(state),
    costBasis: state.cost,
    mark,
    marketValue: value,
    realizedPnl: state.realized,
    unrealizedPnl: value.minus(state.cost),
    fees: state.fees,
    turnover: state.turnover,
    fillCount: state.fillCount,
    settledAt: state.settledAt,
  });
}

function totalsOf(parts: readonly PnlTotals[]): PnlTotals {
  const sum = (pick: (t: PnlTotals) => Decimal) => parts.reduce((acc, t) => acc.plus(pick(t)), ZERO);
  return Object.freeze({
    startingCash: sum((t) => t.startingCash),
    cash: sum((t) => t.cash),
    marketValue: sum((t) => t.marketValue),
    equity: sum((t) => t.equity),
    realizedPnl: sum((t) => t.realizedPnl),
    unrealizedPnl: sum((t) => t.unrealizedPnl),
    fees: sum((t) => t.fees),
    netPnl: sum((t) => t.netPnl),
    adjustments: sum((t) => t.adjustments),
    turnover: sum((t) => t.turnover),
    fillCount: parts.reduce((acc, t) => acc + t.fillCount, 0),
  });
}

export function accountSnapshot(ledger: Ledger, state: AccountState): AccountSnapshot {
  const positions = [...state.positions.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([symbol, position]) => positionSnapshot(ledger, state.account, symbol, position));
  const sum = (pick: (p: PositionSnapshot) => Decimal) => positions.reduce((acc, p) => acc.plus(pick(p)), ZERO);
  const value = sum((p) => p.marketValue);
  const realized = sum((p) => p.realizedPnl);
  const unrealized = sum((p) => p.unrealizedPnl);
  const fees = sum((p) => p.fees);
  return Object.freeze({
    account: state.account,
    positions: Object.freeze(positions),
    startingCash: state.startingCash,
    cash: state.cash,
    marketValue: value,
    equity: state.cash.plus(value),
    realizedPnl: realized,
    unrealizedPnl: unrealized,
    fees,
    netPnl: realized.plus(unrealized).minus(fees),
    adjustments: state.adjustments,
    turnover: sum((p) => p.turnover),
    fillCount: positions.reduce((acc, p) => acc + p.fillCount, 0),
  });
}

/** Equity and position quantities over every account: see Portfolio.valuation. */
export interface Valuation {
  /** Exactly snapshot().totals.equity. */
  readonly equity: Decimal;
  /** Each position record's quantity, in the snapshot's order (accounts, then symbols, sorted). */
  readonly positions: readonly { readonly account: string; readonly symbol: string; readonly qty: Decimal }[];
}

/**
 * The snapshot's equity (cash plus the market value of the positions, per account, summed) with the same
 * Decimal operations in the same order as accountSnapshot and totalsOf, and the positions' quantities,
 * without building the snapshot (an equity sampler needs no more).
 */
export function valuationOf(ledger: Ledger): Valuation {
  let equity = ZERO;
  const positions: { account: string; symbol: string; qty: Decimal }[] = [];
  for (const state of ledger.allAccounts().sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0))) {
    let value = ZERO;
    for (const [symbol, position] of [...state.positions.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
      value = value.plus(marketValue(position, ledger.mark(symbol)));
      positions.push({ account: state.account, symbol, qty: position.qty });
    }
    equity = equity.plus(state.cash.plus(value));
  }
  return { equity, positions };
}

export function portfolioSnapshot(ledger: Ledger, time: EpochMs, currency: string): PortfolioSnapshot {
  const accounts = ledger
    .allAccounts()
    .sort((a, b) => (a.account < b.account ? -1 : a.account > b.account ? 1 : 0))
    .map((state) => accountSnapshot(ledger, state));
  return Object.freeze({ time, currency, accounts: Object.freeze(accounts), totals: totalsOf(accounts) });
}
