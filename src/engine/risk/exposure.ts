/**
 * Worst-case exposure from a RiskContext, built once per check: positions per (symbol, account) and the
 * working quantity of the bot's open orders per side. The worst case assumes every open order on a side
 * fills and none on the other side does: long worst = position + open buys, short worst = position - open sells.
 * This module also answers "does this order only reduce the position?" for the reducing state.
 */
import { ZERO, maxDecimal, type Decimal } from '../../domain/decimal.ts';
import type { IntentSide } from '../intents.ts';
import type { RiskContext, RiskOpenOrder } from './context.ts';
import type { OrderCandidate } from './candidate.ts';

interface Book {
  position: Decimal;
  buys: Decimal;
  sells: Decimal;
}

const key = (symbol: string, account: string): string => `${account}\u0000${symbol}`;

export class ExposureView {
  private readonly books = new Map<string, Book>();
  private readonly symbolsByAccount = new Map<string, Set<string>>();
  private readonly orders: readonly RiskOpenOrder[];

  constructor(context: RiskContext) {
    this.orders = context.openOrders();
    for (const p of context.positions()) {
      const book = this.book(p.symbol, p.account);
      book.position = book.position.plus(p.qty);
    }
    for (const o of this.orders) {
      const book = this.book(o.symbol, o.account);
      if (o.side === 'BUY') book.buys = book.buys.plus(o.leavesQty);
      else book.sells = book.sells.plus(o.leavesQty);
    }
  }

  get openOrders(): readonly RiskOpenOrder[] {
    return this.orders;
  }

  position(symbol: string, account: string): Decimal {
    return this.books.get(key(symbol, account))?.position ?? ZERO;
  }

  /** Working quantity of open orders on `side`, without the order a replace supersedes. */
  openQty(symbol: string, account: string, side: IntentSide, excluding?: RiskOpenOrder): Decimal {
    const book = this.books.get(key(symbol, account));
    let qty = book === undefined ? ZERO : side === 'BUY' ? book.buys : book.sells;
    if (excluding !== undefined && excluding.symbol === symbol && excluding.account === account && excluding.side === side) {
      qty = qty.minus(excluding.leavesQty);
    }
    return qty;
  }

  /** Signed position if every open order on the candidate's side and the candidate itself fill. */
  worstAfter(candidate: OrderCandidate): Decimal {
    const { symbol, account, side } = candidate;
    const pending = this.openQty(symbol, account, side, candidate.replaces).plus(candidate.qty);
    const position = this.position(symbol, account);
    return side === 'BUY' ? position.plus(pending) : position.minus(pending);
  }

  /** Largest |position| the symbol can reach for the account: max(position + buys, sells - position) (>= 0). */
  worstAbs(symbol: string, account: string, candidate?: OrderCandidate): Decimal {
    const position = this.position(symbol, account);
    const applies = candidate !== undefined && candidate.symbol === symbol && candidate.account === account;
    let buys = this.openQty(symbol, account, 'BUY', applies ? candidate.replaces : undefined);
    let sells = this.openQty(symbol, account, 'SELL', applies ? candidate.replaces : undefined);
    if (applies && candidate.side === 'BUY') buys = buys.plus(candidate.qty);
    if (applies && candidate.side === 'SELL') sells = sells.plus(candidate.qty);
    return maxDecimal(position.plus(buys), sells.minus(position), ZERO);
  }

  /** Symbols the account has a position or an open order in. */
  symbolsOf(account: string): readonly string[] {
    return [...(this.symbolsByAccount.get(account) ?? [])];
  }

  /**
   * True when the candidate can only bring the position towards zero without flipping it, even if every
   * open order on its side fills too.
   */
  isReducing(candidate: OrderCandidate): boolean {
    const position = this.position(candidate.symbol, candidate.account);
    const worst = this.worstAfter(candidate);
    if (candidate.side === 'BUY') return position.isNegative() && !position.isZero() && worst.lessThanOrEqualTo(0);
    return position.isPositive() && !position.isZero() && worst.greaterThanOrEqualTo(0);
  }

  private book(symbol: string, account: string): Book {
    const k = key(symbol, account);
    let book = this.books.get(k);
    if (book === undefined) {
      book = { position: ZERO, buys: ZERO, sells: ZERO };
      this.books.set(k, book);
      let symbols = this.symbolsByAccount.get(account);
      if (symbols === undefined) this.symbolsByAccount.set(account, (symbols = new Set()));
      symbols.add(symbol);
    }
    return book;
  }
}
