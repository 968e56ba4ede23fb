/**
 * A symbol's book in the local market copy: the full aggregated levels the market data stream last sent
 * (Decimal prices and quantities), the instrument state and statistics, a sequence number and a staleness
 * flag. A LocalBook is an immutable value: each update replaces the symbol's book with a new object, so a
 * strategy may keep a reference and compare it later. Helpers read the top of book.
 */
import type { BookLevel, Decimal, EpochMs, InstrumentState, InstrumentStats } from '../../domain/index.ts';

export interface LocalBook {
  readonly symbol: string;
  /** Price descending. */
  readonly bids: readonly BookLevel[];
  /** Price ascending. */
  readonly offers: readonly BookLevel[];
  readonly state: InstrumentState | undefined;
  readonly stats: InstrumentStats | undefined;
  /** The exchange's time of the update. */
  readonly transactTime: EpochMs | undefined;
  /** Updates applied to this symbol since the copy started (1 = the first snapshot); never goes back. */
  readonly sequence: number;
  /** True while the stream feeding this book is down: the book may be out of date. False after the next snapshot. */
  readonly stale: boolean;
}

export function bestBid(book: LocalBook): BookLevel | undefined {
  return book.bids[0];
}

export function bestOffer(book: LocalBook): BookLevel | undefined {
  return book.offers[0];
}

/** (best bid + best offer) / 2, or undefined when a side is empty. */
export function midPrice(book: LocalBook): Decimal | undefined {
  const bid = book.bids[0];
  const offer = book.offers[0];
  return bid === undefined || offer === undefined ? undefined : bid.px.plus(offer.px).div(2);
}

/** Best offer - best bid, or undefined when a side is empty. */
export function spread(book: LocalBook): Decimal | undefined {
  const bid = book.bids[0];
  const offer = book.offers[0];
  return bid === undefined || offer === undefined ? undefined : offer.px.minus(bid.px);
}
