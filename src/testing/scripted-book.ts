/**
 * The books of a scripted market: what the test says the market shows (levels as decimal strings), the volume
 * traded so far (so a printed trade reaches the strategy's `onTrade`), and the book events the engine receives.
 * Orders that take liquidity under the venue's `match` answer consume the levels they take from the venue's
 * copy (the next book the test sets replaces it); the engine sees a change only when the test sets a book or
 * prints a trade. The levels the engine sees also hold the bot's own resting orders, as an exchange's book does.
 */
import type { Decimal } from '../domain/decimal.ts';
import { ZERO, parseDecimal } from '../domain/decimal.ts';
import type { PriceQty } from '../domain/index.ts';
import type { BookEvent } from '../domain/stream-events.ts';
import { testingError } from './errors.ts';

/** A book level: `[price, qty]` or `{ price, qty }`; price a decimal string (`"0.41"`), qty a string or whole number. */
export type BookLevelInput = readonly [price: string, qty: string | number] | { readonly price: string; readonly qty: string | number };

/** A book as a test writes it: bids (any order; shown best first) and offers. A missing side is empty. */
export interface BookInput {
  readonly bids?: readonly BookLevelInput[];
  readonly offers?: readonly BookLevelInput[];
}

function level(input: BookLevelInput, symbol: string, side: string): PriceQty {
  const [price, qty] = Array.isArray(input)
    ? (input as readonly [string, string | number])
    : [(input as { price: string }).price, (input as { qty: string | number }).qty];
  if (typeof price !== 'string')
    throw testingError(
      'TESTING_INVALID_LEVEL',
      `${symbol} ${side}: a price is a decimal string such as "0.41" (never a JS number), got ${String(price)}`,
      { symbol },
    );
  if (typeof qty === 'number' && !Number.isInteger(qty))
    throw testingError(
      'TESTING_INVALID_LEVEL',
      `${symbol} ${side} ${price}: a fractional quantity is written as a string ("1.5"), got ${qty}`,
      { symbol },
    );
  const px = parseDecimal(price, `${symbol} ${side} price`);
  const q = parseDecimal(qty, `${symbol} ${side} qty`);
  if (!px.isPositive() || px.isZero() || !q.isPositive() || q.isZero())
    throw testingError('TESTING_INVALID_LEVEL', `${symbol} ${side} ${price} x ${String(qty)}: price and quantity must be above zero`, {
      symbol,
    });
  return { px, qty: q };
}

/** `levels` with `own` quantities added at their prices, sorted by `order`. */
function merged(
  levels: readonly PriceQty[],
  own: readonly { price: Decimal; qty: Decimal }[],
  order: (a: PriceQty, b: PriceQty) => number,
): PriceQty[] {
  const byPrice = new Map(levels.map((l) => [l.px.toFixed(), l]));
  for (const o of own) {
    const key = o.price.toFixed();
    const seen = byPrice.get(key);
    byPrice.set(key, { px: o.price, qty: (seen?.qty ?? ZERO).plus(o.qty) });
  }
  return [...byPrice.values()].sort(order);
}

/** One symbol's scripted book and traded volume. */
class SymbolBook {
  bids: PriceQty[] = [];
  offers: PriceQty[] = [];
  traded: Decimal = ZERO;
  lastTrade: Decimal = ZERO;
}

export class ScriptedBooks {
  private readonly books = new Map<string, SymbolBook>();

  constructor(private readonly symbols: readonly string[]) {
    for (const symbol of symbols) this.books.set(symbol, new SymbolBook());
  }

  /** Replaces `symbol`'s book (the rest of the market: the venue adds the bot's own orders when it publishes). */
  set(symbol: string, input: BookInput): void {
    const book = this.book(symbol);
    book.bids = (input.bids ?? []).map((l) => level(l, symbol, 'bid')).sort((a, b) => b.px.comparedTo(a.px));
    book.offers = (input.offers ?? []).map((l) => level(l, symbol, 'offer')).sort((a, b) => a.px.comparedTo(b.px));
  }

  /** Records a trade on the market (anyone's): the next book event carries it in its stats. */
  trade(symbol: string, price: string, qty: string | number): void {
    const book = this.book(symbol);
    const printed = level([price, qty], symbol, 'trade');
    book.traded = book.traded.plus(printed.qty);
    book.lastTrade = printed.px;
  }

  /** The current book of `symbol` as the engine receives it, with `own` resting orders added to its levels. */
  event(symbol: string, time: number, own: readonly { side: 'BUY' | 'SELL'; price: Decimal; qty: Decimal }[] = []): BookEvent {
    const book = this.book(symbol);
    const stats = {
      openPx: ZERO,
      closePx: ZERO,
      lowPx: ZERO,
      highPx: ZERO,
      lastTradePx: book.lastTrade,
      indicativeOpenPx: ZERO,
      settlementPx: ZERO,
      sharesTraded: book.traded,
      notionalTraded: ZERO,
      openInterest: ZERO,
    };
    const bids = merged(
      book.bids,
      own.filter((o) => o.side === 'BUY'),
      (a, b) => b.px.comparedTo(a.px),
    );
    const offers = merged(
      book.offers,
      own.filter((o) => o.side === 'SELL'),
      (a, b) => a.px.comparedTo(b.px),
    );
    return { type: 'book', symbol, bids, offers, state: 'INSTRUMENT_STATE_OPEN', stats, transactTime: time };
  }

  /** The levels a `side` order at `limit` (undefined: no price limit) could take, best first, and their total. */
  takeable(symbol: string, side: 'BUY' | 'SELL', limit: Decimal | undefined): { levels: PriceQty[]; total: Decimal } {
    const book = this.book(symbol);
    const levels = (side === 'BUY' ? book.offers : book.bids).filter(
      (l) => limit === undefined || (side === 'BUY' ? l.px.lte(limit) : l.px.gte(limit)),
    );
    return { levels, total: levels.reduce((sum, l) => sum.plus(l.qty), ZERO) };
  }

  /** Removes `qty` at `price` from the `side` order's opposite levels (a take). */
  consume(symbol: string, side: 'BUY' | 'SELL', price: Decimal, qty: Decimal): void {
    const book = this.book(symbol);
    const levels = side === 'BUY' ? book.offers : book.bids;
    const index = levels.findIndex((l) => l.px.eq(price));
    const found = levels[index];
    if (found === undefined) return;
    const left = found.qty.minus(qty);
    if (left.isPositive() && !left.isZero()) levels[index] = { px: found.px, qty: left };
    else levels.splice(index, 1);
  }

  private book(symbol: string): SymbolBook {
    const book = this.books.get(symbol);
    if (book === undefined)
      throw testingError('TESTING_UNKNOWN_SYMBOL', `${symbol} is not a symbol of this market (it has ${this.symbols.join(', ')})`, {
        symbol,
      });
    return book;
  }
}
