/**
 * Reconciliation with the exchange, planned as a pure function. The exchange is trusted: after
 * `Portfolio.reconcile`, positions and cash equal the exchange's values, whatever the bot had computed
 * (the differences are returned for logging; they usually mean fills missed while disconnected or
 * activity outside the bot).
 *
 * Rules (ours):
 * - Accounts covered: every account named by a balance (any currency) or a position. Other accounts are
 *   left alone.
 * - Cash: the balance's `balance` in the portfolio currency; balances in other currencies are ignored
 *   and listed. An account whose cash was not known (no starting cash given, never reconciled) takes the
 *   exchange's cash as its starting point: the starting cash moves with the cash, so that is no difference
 *   and no adjustment (fills booked before it stay in the PnL).
 * - Positions: each exchange position sets qty = netPosition and cost = |costBasis| signed like the
 *   position (the exchange's avgEntryPx is rounded to the price scale; the cost basis is not), or
 *   netPosition x avgEntryPx when the cost basis is zero. A local position of a covered account that the
 *   exchange does not list is flat.
 * - Realized PnL, fees, turnover and fill counts stay the bot's own (the exchange's realizedPnl covers the
 *   account's whole history, not this run). The cash and cost changes are added to `adjustments`, so the
 *   accounting identity holds with them and PnL does not jump.
 */
import { type Decimal, ZERO } from '../../domain/decimal.ts';
import type { Balance, Position } from '../../domain/index.ts';
import type { Ledger } from './ledger.ts';
import type { CashDifference, PositionDifference, ReconcileResult } from './types.ts';

export interface ReconcilePlan {
  /** `adopt`: the account's cash was not known: the exchange's value is its starting point, not a correction. */
  readonly cash: readonly { readonly account: string; readonly to: Decimal; readonly adopt: boolean }[];
  readonly positions: readonly { readonly account: string; readonly symbol: string; readonly qty: Decimal; readonly cost: Decimal }[];
  readonly result: ReconcileResult;
}

export function exchangeCost(position: Position): Decimal {
  if (position.costBasis.isZero()) return position.netPosition.times(position.avgEntryPx);
  const magnitude = position.costBasis.abs();
  return position.netPosition.isNegative() ? magnitude.neg() : magnitude;
}

export function planReconcile(
  ledger: Ledger,
  positions: readonly Position[],
  balances: readonly Balance[],
  currency: string,
): ReconcilePlan {
  const covered = new Set<string>([...balances.map((b) => b.account), ...positions.map((p) => p.account)]);
  const cash: { account: string; to: Decimal; adopt: boolean }[] = [];
  const cashDiffs: CashDifference[] = [];
  const ignoredBalances: { account: string; currency: string }[] = [];
  for (const balance of balances) {
    if (balance.currency !== '' && balance.currency !== currency) {
      ignoredBalances.push({ account: balance.account, currency: balance.currency });
      continue;
    }
    const state = ledger.findAccount(balance.account);
    const local = state?.cash ?? ZERO;
    const adopt = state?.cashKnown !== true;
    cash.push({ account: balance.account, to: balance.balance, adopt });
    if (!adopt && !local.eq(balance.balance)) cashDiffs.push({ account: balance.account, localCash: local, exchangeCash: balance.balance });
  }

  const targets = new Map<string, { account: string; symbol: string; qty: Decimal; cost: Decimal }>();
  for (const position of positions) {
    targets.set(`${position.account}\u0000${position.symbol}`, {
      account: position.account,
      symbol: position.symbol,
      qty: position.netPosition,
      cost: exchangeCost(position),
    });
  }
  for (const account of covered) {
    for (const [symbol, local] of ledger.findAccount(account)?.positions ?? []) {
      const key = `${account}\u0000${symbol}`;
      if (!targets.has(key) && !(local.qty.isZero() && local.cost.isZero())) targets.set(key, { account, symbol, qty: ZERO, cost: ZERO });
    }
  }
  const positionDiffs: PositionDifference[] = [];
  for (const target of targets.values()) {
    const local = ledger.position(target.account, target.symbol);
    if (!local.qty.eq(target.qty) || !local.cost.eq(target.cost)) {
      positionDiffs.push({
        account: target.account,
        symbol: target.symbol,
        localQty: local.qty,
        exchangeQty: target.qty,
        localCost: local.cost,
        exchangeCost: target.cost,
      });
    }
  }
  return {
    cash,
    positions: [...targets.values()],
    result: { positions: positionDiffs, cash: cashDiffs, ignoredBalances },
  };
}
