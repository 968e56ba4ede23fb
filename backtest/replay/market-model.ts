/**
 * What the fill engine needs to know about the rest of the market for one symbol, whichever way it is
 * modelled (a synthetic book inferred from a trade tape, or the recorded books of a live session):
 * the liquidity shown per side (raw integer prices and quantities, best first), a way to take some of it
 * when the bot's aggressive order consumed it, and an estimate of the quantity queued at a price.
 */

export interface Level {
  readonly price: number;
  qty: number;
  /** When the level was (re)revealed, epoch ms. */
  time: number;
}

export type BookSide = 'bid' | 'ask';

export interface MarketModel {
  /** Levels of one side, best first (bids descending, asks ascending), as of `now`. */
  levels(side: BookSide, now: number): readonly Level[];
  /** The bot's aggressive order took `qty` at `price` from `side`. */
  consume(side: BookSide, price: number, qty: number): void;
  /** Last traded raw price, if any. */
  readonly lastPrice: number | undefined;
}
