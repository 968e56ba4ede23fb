/**
 * Stream events <-> JSON for recordings: book updates, executions, order snapshots and cancel rejects in
 * the family A wire form (the same codecs the clients decode with, so a recording reads back exactly),
 * lifecycle events as plain objects (a disconnect's error as its description). Decoding validates: a
 * recorded event that does not decode is an error for the caller to report with its line.
 */
import { familyA, scalesOf, type Instrument, type InstrumentScales } from '../../src/domain/index.ts';
import { describeError } from '../../src/errors.ts';
import type { DisconnectReason } from '../../src/exchange/transport/index.ts';
import type { BookEvent, MarketDataEvent, OrderStreamEvent } from '../../src/domain/stream-events.ts';

export type Json = Record<string, unknown>;

const REASONS: readonly DisconnectReason[] = ['error', 'completed', 'silence', 'unauthenticated'];

function object(json: unknown, what: string): Json {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new Error(`${what} is not an object`);
  return json as Json;
}

function lifecycle(json: Json): MarketDataEvent & OrderStreamEvent {
  const attempt = typeof json['attempt'] === 'number' ? json['attempt'] : 1;
  if (json['type'] === 'connected') return { type: 'connected', attempt };
  const reason = REASONS.find((r) => r === json['reason']) ?? 'error';
  return {
    type: 'disconnected',
    attempt,
    reason,
    error: json['error'] ?? undefined,
    willReconnect: json['willReconnect'] !== false,
    retryInMs: undefined,
  };
}

export class EventCodec {
  private readonly scales: Map<string, InstrumentScales>;

  constructor(instruments: readonly Instrument[]) {
    this.scales = new Map(instruments.map((i) => [i.symbol, scalesOf(i)]));
  }

  private lookup = (symbol: string): InstrumentScales | undefined => this.scales.get(symbol);

  /** True when events in `symbol` encode and decode here (its instrument is one of the codec's). */
  knows(symbol: string): boolean {
    return this.scales.has(symbol);
  }

  /**
   * The order stream event as far as it concerns the codec's instruments: an execution in another symbol
   * (another bot or a person trading the account) is undefined, a snapshot keeps its orders in them.
   */
  ownOrders(event: OrderStreamEvent): OrderStreamEvent | undefined {
    if (event.type === 'execution') return this.knows(event.execution.order.symbol) ? event : undefined;
    if (event.type === 'snapshot')
      return event.orders.every((o) => this.knows(o.symbol))
        ? event
        : { ...event, orders: event.orders.filter((o) => this.knows(o.symbol)) };
    return event;
  }

  encodeMarket(event: MarketDataEvent): Json {
    switch (event.type) {
      case 'book':
        return { type: 'book', book: familyA.orderBook.encode(event, this.lookup) };
      case 'disconnected':
        return {
          type: 'disconnected',
          attempt: event.attempt,
          reason: event.reason,
          willReconnect: event.willReconnect,
          error: event.error === undefined ? null : describeError(event.error),
        };
      case 'invalidMessage':
        return { type: 'invalidMessage', error: describeError(event.error) };
      default:
        return { ...event };
    }
  }

  encodeOrders(event: OrderStreamEvent): Json {
    switch (event.type) {
      case 'execution':
        return { type: 'execution', sessionId: event.sessionId, execution: familyA.execution.encode(event.execution, this.lookup) };
      case 'snapshot':
        return { type: 'snapshot', sessionId: event.sessionId, orders: event.orders.map((o) => familyA.order.encode(o, this.lookup)) };
      case 'cancelReject':
        return { type: 'cancelReject', sessionId: event.sessionId, cancelReject: familyA.cancelReject.encode(event.cancelReject) };
      case 'disconnected':
        return {
          type: 'disconnected',
          attempt: event.attempt,
          reason: event.reason,
          willReconnect: event.willReconnect,
          error: event.error === undefined ? null : describeError(event.error),
        };
      case 'invalidMessage':
        return { type: 'invalidMessage', error: describeError(event.error) };
      default:
        return { ...event };
    }
  }

  /** A recorded market event back as a BookEvent; undefined for the other kinds. */
  decodeBook(json: Json): BookEvent | undefined {
    if (json['type'] !== 'book') return undefined;
    const book = familyA.orderBook.decode(json['book'], this.lookup);
    return { type: 'book', ...book };
  }

  /** A recorded market event: books and the lifecycle (connected, disconnected); undefined for the rest (heartbeats, invalid lines). */
  decodeMarket(json: Json): MarketDataEvent | undefined {
    if (json['type'] === 'book') return this.decodeBook(json);
    if (json['type'] === 'connected' || json['type'] === 'disconnected') return lifecycle(json);
    return undefined;
  }

  /**
   * A recorded order stream event: executions, snapshots, cancel rejects and the lifecycle; undefined for the
   * rest and for an execution in a symbol the codec has no instrument for (a snapshot drops such orders).
   */
  decodeOrders(json: Json): OrderStreamEvent | undefined {
    const sessionId = typeof json['sessionId'] === 'string' ? json['sessionId'] : '';
    switch (json['type']) {
      case 'execution': {
        // an execution in a symbol the recording has no instrument for (written before recorders left them out)
        const order = object(object(json['execution'], 'execution')['order'], 'execution.order');
        if (typeof order['symbol'] === 'string' && !this.knows(order['symbol'])) return undefined;
        return { type: 'execution', sessionId, execution: familyA.execution.decode(json['execution'], this.lookup) };
      }
      case 'snapshot': {
        const orders = json['orders'];
        if (!Array.isArray(orders)) throw new Error('snapshot.orders is not a list');
        const known = orders
          .map((o, i) => object(o, `snapshot.orders[${i}]`))
          .filter((o) => typeof o['symbol'] !== 'string' || this.knows(o['symbol']));
        return { type: 'snapshot', sessionId, orders: known.map((o) => familyA.order.decode(o, this.lookup)) };
      }
      case 'cancelReject':
        return { type: 'cancelReject', sessionId, cancelReject: familyA.cancelReject.decode(json['cancelReject']) };
      case 'connected':
      case 'disconnected':
        return lifecycle(json);
      default:
        return undefined;
    }
  }
}
