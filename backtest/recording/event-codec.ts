/**
 * Stream events <-> JSON for recordings: book updates, executions, order snapshots and cancel rejects in
 * the family A wire form (the same codecs the clients decode with, so a recording reads back exactly),
 * lifecycle events as plain objects (a disconnect's error as its description).
 */
import { familyA, scalesOf, type Instrument, type InstrumentScales } from '../../src/domain/index.ts';
import { describeError } from '../../src/errors.ts';
import type { BookEvent, MarketDataEvent, OrderStreamEvent } from '../../src/exchange/gateway/stream-events.ts';

export type Json = Record<string, unknown>;

export class EventCodec {
  private readonly scales: Map<string, InstrumentScales>;

  constructor(instruments: readonly Instrument[]) {
    this.scales = new Map(instruments.map((i) => [i.symbol, scalesOf(i)]));
  }

  private lookup = (symbol: string): InstrumentScales | undefined => this.scales.get(symbol);

  encodeMarket(event: MarketDataEvent): Json {
    switch (event.type) {
      case 'book':
        return { type: 'book', book: familyA.orderBook.encode(event, this.lookup) };
      case 'disconnected':
        return { type: 'disconnected', attempt: event.attempt, reason: event.reason, willReconnect: event.willReconnect, error: event.error === undefined ? null : describeError(event.error) };
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
        return { type: 'disconnected', attempt: event.attempt, reason: event.reason, willReconnect: event.willReconnect, error: event.error === undefined ? null : describeError(event.error) };
      case 'invalidMessage':
        return { type: 'invalidMessage', error: describeError(event.error) };
      default:
        return { ...event };
    }
  }

  /** A recorded market event back as a BookEvent; undefined for the other kinds (replay uses books only). */
  decodeBook(json: Json): BookEvent | undefined {
    if (json['type'] !== 'book') return undefined;
    const book = familyA.orderBook.decode(json['book'], this.lookup);
    return { type: 'book', ...book };
  }
}
