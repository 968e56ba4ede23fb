/**
 * Helpers for market data tests: a seeded burst of orders on a core (resting orders on both sides, some
 * marketable, some cancels) that counts the book changes it caused per symbol, and the check that a local
 * book equals the core's own book (levels, state, statistics).
 */
import { expect } from 'vitest';
import type { LocalBook } from '../../../../src/exchange/market/index.ts';
import { marketSnapshot } from '../../../../src/sim/exchange/market-view.ts';
import type { ExchangeCore } from '../../../../src/sim/exchange/exchange-core.ts';
import { ALICE_MAIN, BOB_MAIN, SYMBOL, SYMBOL2, place } from '../../../sim/grpc/helpers/harness.ts';

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

function levels(book: {
  bids: readonly { px: { toString(): string }; qty: { toString(): string } }[];
  offers: readonly { px: { toString(): string }; qty: { toString(): string } }[];
}) {
  const text = (l: { px: { toString(): string }; qty: { toString(): string } }) => `${l.px.toString()}x${l.qty.toString()}`;
  return { bids: book.bids.map(text), offers: book.offers.map(text) };
}

export function expectSameAsCore(core: ExchangeCore, book: LocalBook | undefined): void {
  const expected = marketSnapshot(core, book?.symbol ?? '', 10);
  if (book === undefined || expected === undefined) throw new Error('no book');
  expect(levels(book)).toEqual(levels(expected));
  expect(book.state).toBe(expected.state);
  expect(book.stats?.lastTradePx.toString()).toBe(expected.stats?.lastTradePx.toString());
  expect(book.stats?.sharesTraded.toString()).toBe(expected.stats?.sharesTraded.toString());
}
