/**
 * Helpers for market data tests: a seeded burst of orders on a core (resting orders on both sides, some
 * marketable, some cancels) that counts the book changes it caused per symbol, and the check that a copied
 * book (./book-copy.ts) equals the core's own book (levels, state, statistics).
 */
import { expect } from 'vitest';
import type { OrderBook } from '../../../src/domain/index.ts';
import type { BookView } from '../../../src/engine/strategy/views.ts';
import { marketSnapshot } from '../../../src/sim/exchange/market-view.ts';
import type { ExchangeCore } from '../../../src/sim/exchange/exchange-core.ts';
import { ALICE_MAIN, BOB_MAIN, SYMBOL, SYMBOL2, place } from '../../sim/grpc/helpers/harness.ts';
import type { CopiedBook } from './book-copy.ts';

/** A seeded burst: resting orders on both sides, some marketable, some cancels; returns book events per symbol. */
export function burst(core: ExchangeCore, count: number, seed: number): Map<string, number> {
  let state = seed >>> 0;
  const random = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const books = new Map<string, number>();
  const subscription = core.events$.subscribe((e) => {
    if (e.kind === 'book') books.set(e.symbol, (books.get(e.symbol) ?? 0) + 1);
  });
  const live: string[] = [];
  for (let i = 0; i < count; i++) {
    const symbol = random() < 0.7 ? SYMBOL : SYMBOL2;
    if (live.length > 0 && random() < 0.15) {
      const [orderId] = live.splice(Math.floor(random() * live.length), 1);
      core.cancel({ orderId: orderId ?? '', symbol: undefined, cancelClordId: `x-${i}` });
      continue;
    }
    const buy = random() < 0.5;
    const price = buy ? 20 + Math.floor(random() * 35) : 45 + Math.floor(random() * 35);
    live.push(
      place(core, {
        account: random() < 0.5 ? ALICE_MAIN : BOB_MAIN,
        participant: 'firms/demo/users/x',
        side: buy ? 'SIDE_BUY' : 'SIDE_SELL',
        price,
        qty: 1 + Math.floor(random() * 9),
        symbol,
      }),
    );
  }
  subscription.unsubscribe();
  return books;
}

/** A view's levels as `price x qty` text per side (the engine's BookView). */
export function viewLevels(book: Pick<BookView, 'bids' | 'offers'>): { bids: string[]; offers: string[] } {
  return {
    bids: book.bids.map((l) => `${l.price.toString()}x${l.qty.toString()}`),
    offers: book.offers.map((l) => `${l.price.toString()}x${l.qty.toString()}`),
  };
}

/** The core's book as the simulator publishes it, in the same text as `viewLevels`. */
export function coreLevels(core: ExchangeCore, symbol: string, depth = 10): { bids: string[]; offers: string[] } {
  const book = coreBook(core, symbol, depth);
  const text = (l: OrderBook['bids'][number]) => `${l.px.toString()}x${l.qty.toString()}`;
  return { bids: book.bids.map(text), offers: book.offers.map(text) };
}

function coreBook(core: ExchangeCore, symbol: string, depth: number): OrderBook {
  const book = marketSnapshot(core, symbol, depth);
  if (book === undefined) throw new Error(`no book for ${symbol} in the core`);
  return book;
}

export function expectSameAsCore(core: ExchangeCore, book: CopiedBook | undefined): void {
  if (book === undefined) throw new Error('no book');
  const expected = coreBook(core, book.symbol, 10);
  expect(viewLevels(book)).toEqual(coreLevels(core, book.symbol));
  expect(book.state).toBe(expected.state);
  expect(book.stats?.lastTradePx.toString()).toBe(expected.stats?.lastTradePx.toString());
  expect(book.stats?.sharesTraded.toString()).toBe(expected.stats?.sharesTraded.toString());
}
