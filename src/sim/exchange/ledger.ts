/**
 * The simulator's ledger: cash balances and positions per account, updated from trades and settlements.
 * Quantities are kept in raw integers (as the engine sees them), money in Decimal. Positions carry an
 * average entry price and realized PnL so the exchange's position reports match what a bot computes: a
 * partial close releases its share of the cost rounded half-even to the instrument's money places (price
 * places plus quantity places), as the bot's portfolio does, so cost and realized PnL stay exact amounts
 * (cost / qty x qty would leave 40-digit remainders that every report and reconciliation then carries).
 */
import { Decimal, ZERO } from '../../domain/decimal.ts';
import type { InstrumentScales } from '../../domain/scales.ts';

export interface LedgerPosition {
  account: string;
  symbol: string;
  /** Raw net quantity: positive long, negative short. */
  net: number;
  /** Decimal cost of the open position (|net| x average entry price). */
  cost: Decimal;
  realizedPnl: Decimal;
  updateTime: number;
}

export interface LedgerBalance {
  account: string;
  cash: Decimal;
  updateTime: number;
}

export class Ledger {
  private readonly balances = new Map<string, LedgerBalance>();
  private readonly positions = new Map<string, Map<string, LedgerPosition>>();

  constructor(private readonly startingBalance: Decimal) {}

  balance(account: string): LedgerBalance {
    let balance = this.balances.get(account);
    if (balance === undefined) {
      balance = { account, cash: this.startingBalance, updateTime: 0 };
      this.balances.set(account, balance);
    }
    return balance;
  }

  credit(account: string, amount: Decimal, time: number): LedgerBalance {
    const balance = this.balance(account);
    balance.cash = balance.cash.plus(amount);
    balance.updateTime = time;
    return balance;
  }

  /** Every account's balance (accounts seen so far). */
  allBalances(): LedgerBalance[] {
    return [...this.balances.values()];
  }

  /** Every position ever opened, flat ones included. */
  allPositions(): LedgerPosition[] {
    return [...this.positions.values()].flatMap((byAccount) => [...byAccount.values()]);
  }

  /** Open interest of `symbol` in raw quantity: the contracts held long across accounts (equal to those held short). */
  openInterest(symbol: string): number {
    let long = 0;
    for (const byAccount of this.positions.values()) {
      const net = byAccount.get(symbol)?.net ?? 0;
      if (net > 0) long += net;
    }
    return long;
  }

  positionsOf(account: string): LedgerPosition[] {
    return [...(this.positions.get(account)?.values() ?? [])];
  }

  position(account: string, symbol: string): LedgerPosition {
    let byAccount = this.positions.get(account);
    if (byAccount === undefined) {
      byAccount = new Map();
      this.positions.set(account, byAccount);
    }
    let position = byAccount.get(symbol);
    if (position === undefined) {
      position = { account, symbol, net: 0, cost: ZERO, realizedPnl: ZERO, updateTime: 0 };
      byAccount.set(symbol, position);
    }
    return position;
  }

  /** Books one side of a fill: `signedQty` > 0 buys, < 0 sells, at raw `priceRaw`. */
  fill(account: string, symbol: string, signedQty: number, priceRaw: number, scales: InstrumentScales, time: number): LedgerPosition {
    const px = new Decimal(priceRaw).div(scales.priceScale);
    const qty = new Decimal(Math.abs(signedQty)).div(scales.qtyScale);
    const position = this.position(account, symbol);
    this.credit(account, px.times(qty).times(signedQty > 0 ? -1 : 1), time);
    const sameDirection = position.net === 0 || Math.sign(position.net) === Math.sign(signedQty);
    if (sameDirection) {
      position.cost = position.cost.plus(px.times(qty));
    } else {
      const closing = Math.min(Math.abs(signedQty), Math.abs(position.net));
      const closingQty = new Decimal(closing).div(scales.qtyScale);
      const released =
        closing === Math.abs(position.net)
          ? position.cost
          : position.cost
              .times(closing)
              .div(Math.abs(position.net))
              .toDecimalPlaces(scales.priceDigits + scales.qtyDigits, Decimal.ROUND_HALF_EVEN);
      const proceeds = px.times(closingQty);
      position.realizedPnl = position.realizedPnl.plus(position.net > 0 ? proceeds.minus(released) : released.minus(proceeds));
      position.cost = position.cost.minus(released);
      const opening = Math.abs(signedQty) - closing;
      if (opening > 0) position.cost = px.times(new Decimal(opening).div(scales.qtyScale));
    }
    position.net += signedQty;
    if (position.net === 0) position.cost = ZERO;
    position.updateTime = time;
    return position;
  }

  /** Settles every position in `symbol` at `settlementPx` (0 or 1): cash credited, positions closed. */
  settle(symbol: string, settlementPx: Decimal, scales: InstrumentScales, time: number): LedgerPosition[] {
    const settled: LedgerPosition[] = [];
    for (const byAccount of this.positions.values()) {
      const position = byAccount.get(symbol);
      if (position === undefined || position.net === 0) continue;
      const qty = new Decimal(position.net).div(scales.qtyScale);
      this.credit(position.account, settlementPx.times(qty), time);
      position.realizedPnl = position.realizedPnl
        .plus(settlementPx.times(qty))
        .minus(position.net > 0 ? position.cost : position.cost.neg());
      position.net = 0;
      position.cost = ZERO;
      position.updateTime = time;
      settled.push(position);
    }
    return settled;
  }
}
