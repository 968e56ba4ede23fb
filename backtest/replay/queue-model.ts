/**
 * Queue-ahead estimate for a bot order that starts resting at a price (raw integers): how much of the
 * market's quantity at that price is in front of it, which tape trades AT the price must use up before
 * the order fills. Models (config `backtest.queueAheadModel`):
 *  - `volume` (default, windowMs 30000): the volume the tape traded at that price over the last windowMs;
 *  - `level` (fraction f): f x the size the synthetic book shows at that price on the order's side;
 *  - `none`: nothing ahead (optimistic: the first trade at the price fills it).
 * Whatever the model, an order that improves on the best level of its side (or finds that side empty)
 * has nothing ahead of it: it alone makes the new best price.
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
    case 'level': {
      const level = inputs.sameSide.find((l) => l.price === inputs.price);
      return level === undefined ? 0 : Math.floor(level.qty * model.fraction);
    }
    case 'volume':
      return inputs.volume?.volumeAt(inputs.price, inputs.now) ?? 0;
  }
}
