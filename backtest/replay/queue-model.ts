/**
 * Queue-ahead estimate for a bot order that starts resting at a price (raw integers): how much of the
 * market's quantity at that price is in front of it, which tape trades AT the price must use up before
 * the order fills. Models (config `backtest.queueAheadModel`):
 *  - `volume` (default, windowMs 30000): the volume the tape traded at that price over the last windowMs;
 *    when none traded there, what the book shows there (below);
 *  - `level` (fraction f): f x the size the synthetic book shows at that price on the order's side;
 *  - `none`: nothing ahead (optimistic: the first trade at the price fills it).
 * Whatever the model, an order that improves on the best level of its side (or finds that side empty)
 * has nothing ahead of it: it alone makes the new best price. An order joining behind the best, at a price
 * the book shows no level for, is not taken to be first there: the market rests at prices behind the best
 * too, so the thinnest level the book shows on that side stands for the one it cannot see (until the book
 * shows that price: the fill engine then caps the estimate at what it shows).
 */
import type { Level } from './market-model.ts';
import type { VolumeWindow } from './volume-window.ts';

export type QueueAheadModel =
  | { readonly model: 'volume'; readonly windowMs: number }
  | { readonly model: 'level'; readonly fraction: number }
  | { readonly model: 'none' };

export interface QueueInputs {
  readonly buy: boolean;
  readonly price: number;
  /** The synthetic book's levels on the order's own side, best first. */
  readonly sameSide: readonly Level[];
  readonly volume: VolumeWindow | undefined;
  readonly now: number;
}

export function queueAhead(model: QueueAheadModel, inputs: QueueInputs): number {
  const best = inputs.sameSide[0];
  if (best === undefined || (inputs.buy ? inputs.price > best.price : inputs.price < best.price)) return 0;
  switch (model.model) {
    case 'none':
      return 0;
    case 'level':
      return Math.floor(shownAt(inputs) * model.fraction);
    case 'volume': {
      const traded = inputs.volume?.volumeAt(inputs.price, inputs.now) ?? 0;
      return traded > 0 ? traded : shownAt(inputs);
    }
  }
}

/** What the book shows at the order's price on its side; at a price it shows no level for, its thinnest level. */
function shownAt(inputs: QueueInputs): number {
  let thinnest = Number.POSITIVE_INFINITY;
  for (const level of inputs.sameSide) {
    if (level.price === inputs.price) return level.qty;
    if (level.qty < thinnest) thinnest = level.qty;
  }
  return thinnest === Number.POSITIVE_INFINITY ? 0 : thinnest;
}
