/**
 * Builders for the Portfolio suites: fills, exchange positions and balances, a portfolio on a virtual
 * clock, and the accounting identity as a function.
 */
import { expect } from 'vitest';
import { Decimal, ZERO } from '../../../src/domain/decimal.ts';
import type { Balance, Position } from '../../../src/domain/index.ts';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { Portfolio, type PortfolioChange, type PortfolioFill, type PortfolioOptions } from '../../../src/engine/portfolio/index.ts';

export const d = (text: string | number): Decimal => new Decimal(text);
export const ACCOUNT = 'firms/f1/accounts/a1';
export const OTHER = 'firms/f1/accounts/a2';
export const SYMBOL = 'EVT-A';
export const T0 = 1_700_000_000_000;

export function installDecimalEquality(): void {
  expect.addEqualityTesters([(a: unknown, b: unknown) => (Decimal.isDecimal(a) && Decimal.isDecimal(b) ? a.eq(b) : undefined)]);
}

let seq = 0;
export function fill(side: 'BUY' | 'SELL', qty: string | number, price: string, overrides: Partial<PortfolioFill> = {}): PortfolioFill {
  seq += 1;
  return {
    fillId: `F${seq}`,
    account: ACCOUNT,
    symbol: SYMBOL,
    side,
    qty: d(qty),
    price: d(price),
    aggressor: false,
    time: T0 + seq,
    ...overrides,
  };
}

export function exchangePosition(overrides: Partial<Position> = {}): Position {
  return {
    account: ACCOUNT,
    symbol: SYMBOL,
    netPosition: ZERO,
    openBuyQty: ZERO,
    openSellQty: ZERO,
    avgEntryPx: ZERO,
    costBasis: ZERO,
    realizedPnl: ZERO,
    updateTime: undefined,
    ...overrides,
  };
}

export function balance(overrides: Partial<Balance> = {}): Balance {
  return {
    account: ACCOUNT,
    currency: 'USD',
    balance: ZERO,
    buyingPower: ZERO,
    openOrders: ZERO,
    unsettledFunds: ZERO,
    availableToWithdraw: ZERO,
    updateTime: undefined,
    ...overrides,
  };
}

export function portfolio(options: Partial<PortfolioOptions> = {}): {
  portfolio: Portfolio;
  clock: VirtualClock;
  changes: PortfolioChange[];
} {
  const clock = new VirtualClock(T0);
  const p = new Portfolio({ clock, startingCash: { [ACCOUNT]: d(1000) }, ...options });
  const changes: PortfolioChange[] = [];
  p.changes$.subscribe((c) => changes.push(c));
  return { portfolio: p, clock, changes };
}

/** cash + market value - (starting cash + realized + unrealized - fees + adjustments), per account. */
export function identityGap(p: Portfolio, account: string): Decimal {
  const a = p.account(account);
  if (a === undefined) return ZERO;
  const lhs = a.cash.plus(a.marketValue);
  const rhs = a.startingCash.plus(a.realizedPnl).plus(a.unrealizedPnl).minus(a.fees).plus(a.adjustments);
  return lhs.minus(rhs);
}
