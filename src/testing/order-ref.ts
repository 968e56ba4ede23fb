/**
 * How a test names an order of the scripted venue: by the recorder's name (`#1`), by a client order id it has
 * carried, by the venue's order id (`V1`), or by what it is (`{ side: 'BUY' }`, `{ symbol, side, price }`):
 * exactly one order must fit, else the error lists the candidates.
 */
import { parseDecimal } from '../domain/decimal.ts';
import type { IntentSide } from '../engine/intents.ts';
import { testingError } from './errors.ts';
import type { StrategyRecorder } from './recorder.ts';
import type { ScriptedOrderView } from './venue-orders.ts';

/** An order of the venue: `#n`, a client order id, a venue order id, or a filter over the open orders. */
export type OrderRef = string | { readonly symbol?: string; readonly side?: IntentSide; readonly price?: string };

function describe(order: ScriptedOrderView, recorder: StrategyRecorder): string {
  return (
    `${recorder.nameOf(order.clordId)} ${order.side} ${order.leavesQty.toFixed()} ` +
    `${order.symbol}@${order.price?.toFixed() ?? 'market'} (${order.status})`
  );
}

/** The one order `ref` names (any status for an id, open ones for a filter). */
export function resolveOrder(ref: OrderRef, orders: readonly ScriptedOrderView[], recorder: StrategyRecorder): ScriptedOrderView {
  let found: ScriptedOrderView[];
  if (typeof ref === 'string') {
    found = orders.filter((o) => o.orderId === ref || o.clordIds.includes(ref) || o.clordIds.some((id) => recorder.nameOf(id) === ref));
  } else {
    const price = ref.price === undefined ? undefined : parseDecimal(ref.price, 'order price');
    found = orders.filter(
      (o) =>
        o.status === 'open' &&
        (ref.symbol === undefined || o.symbol === ref.symbol) &&
        (ref.side === undefined || o.side === ref.side) &&
        (price === undefined || (o.price !== undefined && o.price.eq(price))),
    );
  }
  const open = orders.filter((o) => o.status === 'open' || o.status === 'held').map((o) => describe(o, recorder));
  const what = typeof ref === 'string' ? ref : JSON.stringify(ref);
  if (found.length === 0)
    throw testingError('TESTING_NO_ORDER', `no order of the venue fits ${what} (open or held: ${open.join('; ') || 'none'})`, {
      ref: what,
    });
  const [only, ...more] = found;
  if (only === undefined || more.length > 0) {
    throw testingError(
      'TESTING_AMBIGUOUS_ORDER',
      `${found.length} orders fit ${what}: ${found.map((o) => describe(o, recorder)).join('; ')}; name one by #n or add side/price`,
      { ref: what },
    );
  }
  return only;
}
