/**
 * The `cross_type` a cross intent is sent with. The exchange takes only crosses with `cross_type` set, and
 * CROSS_TYPE_ALL_OR_NONE is its one value besides UNDEFINED (EXCHANGE_API.md, insert_order_cross), so a
 * cross that is not all-or-none cannot be sent: it is refused here with a typed error saying what to change,
 * by the gateway venue and the backtest's simulated venue alike.
 */
import type { CrossType } from '../../domain/enums.ts';
import type { VenueCrossRequest } from '../../engine/venue.ts';
import { TradebotError } from '../../errors.ts';

export function crossTypeOf(request: VenueCrossRequest): CrossType {
  if (request.allOrNone) return 'CROSS_TYPE_ALL_OR_NONE';
  throw new TradebotError(
    'VENUE_CROSS_TYPE_UNSUPPORTED',
    `cross ${request.crossId}: the exchange takes only all-or-none crosses (cross_type CROSS_TYPE_ALL_OR_NONE); ` +
      'send it with allOrNone: true (the default of ctx.cross)',
    { kind: 'rejection' },
  );
}
