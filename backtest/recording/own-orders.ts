/**
 * The live bot's own orders and fills, as its recorded order stream told them (snapshots and executions).
 * A recorded book shows the whole market, the bot's own quotes included, and its session statistics count
 * the bot's own fills; replaying either as market liquidity would let the replayed strategy trade against
 * its own past quotes. So for each symbol this keeps:
 *  - the bot's orders with their states over exchange time (raw price, side, leaves), to take out of the
 *    recorded levels (`restingBySide(symbol, asOf)`). The market and order streams are separate
 *    connections, so an execution often arrives before the book update its change belongs to (or after):
 *    a book with exchange time T shows each order as of its last change before T, whatever the order of
 *    arrival; a change in the same millisecond as the book counts when the book's level moved by it.
 *  - the quantity the bot filled since the last book of the symbol, split into passive fills (a taker hit
 *    the bot's quote: real market demand, which a replayed order at that price meets again) and aggressive
 *    fills (the bot took liquidity: its own demand, simulated again by the replay), taken by `takeFills`
 *    when the next book of the symbol that shows a trade is replayed.
 * Every order of the recorded accounts counts as the bot's own.
 */
import { decimalToRawInt, type InstrumentScales, type Order } from '../../src/domain/index.ts';
import type { OrderStreamEvent } from '../../src/domain/stream-events.ts';

/** One state of an own order from `time` (exchange ms) on; leaves 0 = not resting. */
interface OwnState {
  readonly time: number;
  readonly price: number;
  readonly leaves: number;
}

interface OwnOrder {
  readonly symbol: string;
  readonly buy: boolean;
  /** Oldest first; states older than the newest one a book has used are dropped. */
  states: OwnState[];
}

export interface OwnFills {
  /** Raw quantity filled while resting (the aggressor was someone else). */
  passive: number;
  /** Raw quantity filled taking liquidity. */
  aggressive: number;
}

export interface OwnResting {
  readonly bid: ReadonlyMap<number, number>;
  readonly ask: ReadonlyMap<number, number>;
}

const RESTING = new Set(['ORDER_STATE_NEW', 'ORDER_STATE_PARTIALLY_FILLED', 'ORDER_STATE_PENDING_CANCEL', 'ORDER_STATE_PENDING_REPLACE']);
const BOOK_TYPES = new Set(['ORDER_TYPE_LIMIT', 'ORDER_TYPE_MARKET_TO_LIMIT']);

export class OwnOrders {
  private readonly orders = new Map<string, OwnOrder>();
  private readonly fills = new Map<string, OwnFills>();

  constructor(private readonly scales: ReadonlyMap<string, InstrumentScales>) {}

  apply(event: OrderStreamEvent): void {
    if (event.type === 'snapshot') {
      this.orders.clear();
      for (const order of event.orders) this.track(order, Number.NEGATIVE_INFINITY);
      return;
    }
    if (event.type !== 'execution') return;
    const { execution } = event;
    const order = execution.order;
    const scales = this.scales.get(order.symbol);
    if (scales === undefined) return;
    this.track(order, execution.transactTime ?? Number.NEGATIVE_INFINITY);
    if (!execution.lastShares.gt(0)) return;
    const qty = raw(execution.lastShares, scales, 'qty');
    if (qty === undefined) return;
    const fills = this.fillsOf(order.symbol);
    if (execution.aggressor) fills.aggressive += qty;
    else fills.passive += qty;
  }

  /**
   * The bot's resting quantity per raw price on each side of `symbol` in a book of exchange time `asOf`
   * (books of a symbol come in time order: states older than the one used are forgotten). A change made
   * before `asOf` is in the book; one made in the same millisecond is when the book's level at its price
   * moved that way by at least as much since the previous book (`delta`: the book's change of quantity at
   * a price, both sides); without `delta` it is taken as made.
   */
  restingBySide(symbol: string, asOf: number = Number.POSITIVE_INFINITY, delta?: (buy: boolean, price: number) => number): OwnResting {
    const bid = new Map<number, number>();
    const ask = new Map<number, number>();
    for (const [id, o] of this.orders) {
      if (o.symbol !== symbol) continue;
      const states = o.states;
      let at = -1;
      while (at + 1 < states.length && (states[at + 1] as OwnState).time < asOf) at++;
      while (
        at + 1 < states.length &&
        (states[at + 1] as OwnState).time === asOf &&
        (delta === undefined || shown(states[at], states[at + 1] as OwnState, (p) => delta(o.buy, p)))
      )
        at++;
      if (at < 0) continue; // not at the exchange yet as of this book
      if (at > 0) o.states = states.slice(at);
      const state = o.states[0] as OwnState;
      if (state.leaves <= 0) {
        if (o.states.length === 1) this.orders.delete(id);
        continue;
      }
      const side = o.buy ? bid : ask;
      side.set(state.price, (side.get(state.price) ?? 0) + state.leaves);
    }
    return { bid, ask };
  }

  /** The bot's fills in `symbol` since the previous call for it. */
  takeFills(symbol: string): OwnFills {
    const fills = this.fills.get(symbol);
    if (fills === undefined) return { passive: 0, aggressive: 0 };
    this.fills.delete(symbol);
    return fills;
  }

  private fillsOf(symbol: string): OwnFills {
    let fills = this.fills.get(symbol);
    if (fills === undefined) {
      fills = { passive: 0, aggressive: 0 };
      this.fills.set(symbol, fills);
    }
    return fills;
  }

  private track(order: Order, time: number): void {
    const scales = this.scales.get(order.symbol);
    if (scales === undefined || order.id === '') return;
    const price = raw(order.price, scales, 'price');
    const leaves = raw(order.leavesQty, scales, 'qty');
    const resting =
      RESTING.has(order.state) && BOOK_TYPES.has(order.type) && price !== undefined && price > 0 && leaves !== undefined && leaves > 0;
    const state: OwnState = { time, price: price ?? 0, leaves: resting ? (leaves ?? 0) : 0 };
    const known = this.orders.get(order.id);
    if (known === undefined) {
      if (resting) this.orders.set(order.id, { symbol: order.symbol, buy: order.side === 'SIDE_BUY', states: [state] });
      return;
    }
    // keep the states in exchange time order (a stream may deliver two changes of one order out of order)
    let i = known.states.length;
    while (i > 0 && (known.states[i - 1] as OwnState).time > time) i--;
    known.states.splice(i, 0, state);
  }
}

/** True when the book's change (`delta` at a price) shows the change from `before` to `after` of an own order. */
function shown(before: OwnState | undefined, after: OwnState, delta: (price: number) => number): boolean {
  const was = before === undefined || before.leaves <= 0 ? undefined : before;
  const is = after.leaves <= 0 ? undefined : after;
  const change = (price: number) => (is?.price === price ? is.leaves : 0) - (was?.price === price ? was.leaves : 0);
  for (const price of new Set([was?.price, is?.price])) {
    if (price === undefined) continue;
    const own = change(price);
    const book = delta(price);
    if (own > 0 ? book < own : own < 0 ? book > own : false) return false;
  }
  return true;
}

function raw(value: Order['price'], scales: InstrumentScales, kind: 'price' | 'qty'): number | undefined {
  try {
    return decimalToRawInt(value, scales, kind);
  } catch {
    return undefined;
  }
}
