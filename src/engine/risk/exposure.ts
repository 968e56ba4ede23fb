/**
 * Worst-case exposure from a RiskContext, one view per check (its pairs summed when asked): positions per (symbol, account) and the
 * working quantity of the bot's open orders per side. The worst case assumes every open order on a side
 * fills and none on the other side does: long worst = position + open buys, short worst = position - open sells.
 * This module also answers "does this order only reduce the position?" for the reducing state.
 */
import { maxDecimal, ZERO, type Decimal } from '../../domain/decimal.ts';
import type { IntentSide } from '../intents.ts';
import type { RiskContext, RiskOpenOrder, RiskPosition } from './context.ts';
import type { OrderCandidate } from './candidate.ts';

interface Book {
  position: Decimal;
  buys: Decimal;
  sells: Decimal;
}

const NO_BOOK: Book = Object.freeze({ position: ZERO, buys: ZERO, sells: ZERO });

/** a - b, without allocating when b is 0 or a (a replace's own order is often all the working quantity). */
const minus = (a: Decimal, b: Decimal): Decimal => (b.isZero() ? a : a.eq(b) ? ZERO : a.minus(b));
export const plus = (a: Decimal, b: Decimal): Decimal => (b.isZero() ? a : a.isZero() ? b : a.plus(b));

function addPosition(book: Book, p: RiskPosition): void {
  book.position = plus(book.position, p.qty);
}

function addOrder(book: Book, o: RiskOpenOrder): void {
  if (o.side === 'BUY') book.buys = plus(book.buys, o.leavesQty);
  else book.sells = plus(book.sells, o.leavesQty);
}

/** Distinct (symbol, account) pairs a view sums on demand before it sums them all in one pass. */
const LAZY_BOOKS = 4;

export class ExposureView {
  /**
   * Books by account, then symbol (no composite string key to build on every lookup): a check asks for one or
   * two pairs (the candidate's), so the first few are summed from the lists when asked (the lists hold a
   * strategy's few orders and positions), and all of them in one pass once more are asked (an event group's).
   */
  private books: Map<string, Map<string, Book>> | undefined;
  private readonly lazy: { readonly symbol: string; readonly account: string; readonly book: Book }[] = [];
  private readonly orders: readonly RiskOpenOrder[];
  private readonly positions: readonly RiskPosition[];

  constructor(context: RiskContext) {
    this.orders = context.openOrders();
    this.positions = context.positions();
  }

  get openOrders(): readonly RiskOpenOrder[] {
    return this.orders;
  }

  position(symbol: string, account: string): Decimal {
    return this.lookup(symbol, account).position;
  }

  /** Working quantity of open orders on `side`, without the order a replace supersedes. */
  openQty(symbol: string, account: string, side: IntentSide, excluding?: RiskOpenOrder): Decimal {
    return this.sideQty(this.lookup(symbol, account), symbol, account, side, excluding);
  }

  /** Signed position if every open order on the candidate's side and the candidate itself fill. */
  worstAfter(candidate: OrderCandidate): Decimal {
    const { symbol, account, side } = candidate;
    const book = this.lookup(symbol, account);
    const pending = plus(this.sideQty(book, symbol, account, side, candidate.replaces), candidate.qty);
    return side === 'BUY' ? plus(book.position, pending) : minus(book.position, pending);
  }

  /** Largest |position| the symbol can reach for the account: max(position + buys, sells - position) (>= 0). */
  worstAbs(symbol: string, account: string, candidate?: OrderCandidate): Decimal {
    const book = this.lookup(symbol, account);
    const applies = candidate !== undefined && candidate.symbol === symbol && candidate.account === account;
    let buys = this.sideQty(book, symbol, account, 'BUY', applies ? candidate.replaces : undefined);
    let sells = this.sideQty(book, symbol, account, 'SELL', applies ? candidate.replaces : undefined);
    if (applies && candidate.side === 'BUY') buys = plus(buys, candidate.qty);
    if (applies && candidate.side === 'SELL') sells = plus(sells, candidate.qty);
    return maxDecimal(plus(book.position, buys), minus(sells, book.position), ZERO);
  }

  /** Symbols the account has a position or an open order in. */
  symbolsOf(account: string): readonly string[] {
    const symbols: string[] = [];
    for (const p of this.positions) if (p.account === account && !symbols.includes(p.symbol)) symbols.push(p.symbol);
    for (const o of this.orders) if (o.account === account && !symbols.includes(o.symbol)) symbols.push(o.symbol);
    return symbols;
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

  private lookup(symbol: string, account: string): Book {
    if (this.books !== undefined) return this.books.get(account)?.get(symbol) ?? NO_BOOK;
    const lazy = this.lazy;
    for (const entry of lazy) if (entry.symbol === symbol && entry.account === account) return entry.book;
    if (lazy.length >= LAZY_BOOKS) return this.all().get(account)?.get(symbol) ?? NO_BOOK;
    const book = this.sum(symbol, account);
    lazy.push({ symbol, account, book });
    return book;
  }

  /** One pair's book from the lists. */
  private sum(symbol: string, account: string): Book {
    const book: Book = { position: ZERO, buys: ZERO, sells: ZERO };
    for (const p of this.positions) if (p.symbol === symbol && p.account === account) addPosition(book, p);
    for (const o of this.orders) if (o.symbol === symbol && o.account === account) addOrder(book, o);
    return book;
  }

  /** Every pair's book, summed in one pass over the lists (the first call; lookups use it from then on). */
  private all(): Map<string, Map<string, Book>> {
    if (this.books !== undefined) return this.books;
    const books = new Map<string, Map<string, Book>>();
    this.books = books;
    for (const p of this.positions) addPosition(this.book(books, p.symbol, p.account), p);
    for (const o of this.orders) addOrder(this.book(books, o.symbol, o.account), o);
    return books;
  }

  private sideQty(book: Book, symbol: string, account: string, side: IntentSide, excluding: RiskOpenOrder | undefined): Decimal {
    const qty = side === 'BUY' ? book.buys : book.sells;
    if (excluding !== undefined && excluding.symbol === symbol && excluding.account === account && excluding.side === side)
      return minus(qty, excluding.leavesQty);
    return qty;
  }

  private book(books: Map<string, Map<string, Book>>, symbol: string, account: string): Book {
    let symbols = books.get(account);
    if (symbols === undefined) books.set(account, (symbols = new Map()));
    let book = symbols.get(symbol);
    if (book === undefined) {
      book = { position: ZERO, buys: ZERO, sells: ZERO };
      symbols.set(symbol, book);
    }
    return book;
  }
}
