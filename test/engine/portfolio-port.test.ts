/**
 * The portfolio port's daily PnL (what the daily loss limit reads): today's, UTC. A position taken over from
 * the exchange at reconciliation does not count its loss or gain from before the run at its first mark,
 * only the moves after it; and a new UTC day starts again from zero.
 */
import { describe, expect, it } from 'vitest';
import { parseDecimal as d } from '../../src/domain/decimal.ts';
import type { Balance, Position } from '../../src/domain/index.ts';
import { VirtualClock } from '../../src/engine/clock.ts';
import { Portfolio } from '../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../src/engine/portfolio-port.ts';

const ACCOUNT = 'firms/f/accounts/main';
const SYMBOL = 'EVT-A';
const T0 = Date.UTC(2026, 10, 25, 22, 0, 0);

const held = (qty: string, cost: string): Position => ({
  account: ACCOUNT,
  symbol: SYMBOL,
  netPosition: d(qty),
  openBuyQty: d('0'),
  openSellQty: d('0'),
  avgEntryPx: d(cost).div(d(qty)),
  costBasis: d(cost),
  realizedPnl: d('0'),
  updateTime: undefined,
});
const cash: Balance = {
  account: ACCOUNT,
  currency: 'USD',
  balance: d('1000'),
  buyingPower: d('0'),
  openOrders: d('0'),
  unsettledFunds: d('0'),
  availableToWithdraw: d('0'),
  updateTime: undefined,
};

describe('portfolio port daily PnL', () => {
  it('leaves out what a position taken over from the exchange was worth at its first mark, and counts the moves after', () => {
    const clock = new VirtualClock(T0);
    const port = portfolioPort(new Portfolio({ clock }));
    port.reconcile([held('100', '90')], [cash]); // bought days ago at 0.90
    expect(port.dailyPnl().toString()).toBe('0');
    port.mark(SYMBOL, d('0.50')); // worth 50 now: a loss of 40, but not today's
    expect(port.dailyPnl().toString()).toBe('0');
    port.mark(SYMBOL, d('0.45'));
    expect(port.dailyPnl().toString()).toBe('-5');
  });

  it('starts a new UTC day from zero', () => {
    const clock = new VirtualClock(T0);
    const port = portfolioPort(new Portfolio({ clock }));
    port.reconcile([held('100', '50')], [cash]);
    port.mark(SYMBOL, d('0.50'));
    port.mark(SYMBOL, d('0.40'));
    expect(port.dailyPnl().toString()).toBe('-10');
    clock.advanceTo(T0 + 3 * 3_600_000); // past midnight UTC
    expect(port.dailyPnl().toString()).toBe('0');
    port.mark(SYMBOL, d('0.42'));
    expect(port.dailyPnl().toString()).toBe('2');
  });
});
