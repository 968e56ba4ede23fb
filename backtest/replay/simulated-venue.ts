/**
 * SimulatedVenue: the backtest's Venue. The pipeline sees the same port as live: market data as
 * BookEvents, the order stream (connected, an empty snapshot, then executions and cancel rejects), and
 * order entry calls answered with promises. Behind it, each call reaches the exchange after its
 * configured latency (virtual ms) through the RequestQueue and is executed there by the FillEngine (the
 * simulator's matching engine); the replay loop moves virtual time and feeds the market: tape trades
 * (passive fills first, then the market model and, when the best bid or offer moved, a BookEvent) or
 * recorded books. Nothing here reads the wall clock or sets timers.
 */
import { Subject, type Observable } from 'rxjs';
import type { Instrument, InstrumentScales } from '../../src/domain/index.ts';
import { decimalToRawInt, scalesOf } from '../../src/domain/index.ts';
import { TradebotError } from '../../src/errors.ts';
import type { Clock } from '../../src/engine/clock.ts';
import type { BookEvent, MarketDataEvent, OrderStreamEvent } from '../../src/domain/stream-events.ts';
import type {
  Venue,
  VenueCancelRequest,
  VenueCrossRequest,
  VenueOrderRequest,
  VenueReplaceRequest,
  VenueSnapshot,
} from '../../src/engine/venue.ts';
import { WIRE_ORDER_TYPE, WIRE_SIDE, WIRE_TIME_IN_FORCE } from '../../src/bot/venues/order-input.ts';
import { crossTypeOf } from '../../src/bot/venues/cross-type.ts';
import type { OrderRequest } from '../../src/sim/matching/types.ts';
import { toDomainOrder } from '../../src/sim/exchange/to-domain.ts';
import { SymbolFeed } from './book-events.ts';
import type { BotOutcome, FillEngine } from './fill-engine.ts';
import type { MarketModel } from './market-model.ts';
import { cancelRejectEvent, executionEvent, SESSION_ID, type Commissions } from './order-events.ts';
import { RequestQueue } from './request-queue.ts';
import type { RestingOrders } from './resting-orders.ts';

export interface Latency {
  readonly insertMs: number;
  readonly cancelMs: number;
  readonly replaceMs: number;
}

/**
 * A market model the tape feeds (TapeBook). `topStamp` changes whenever either side's best price may have
 * changed, expiry included (see TapeBook).
 */
export type TapeModel = MarketModel & { onTrade(price: number, qty: number, buy: boolean, time: number): void; readonly topStamp: number };

/** One symbol's tape path: its market model, book feed and the bot's resting orders there. */
export interface TapeLane {
  readonly symbol: string;
  readonly model: TapeModel;
  readonly feed: SymbolFeed | undefined;
  readonly resting: RestingOrders | undefined;
  /** Traded at the pending time, book not published yet. */
  pending: boolean;
  /**
   * The model's topStamp and the feed's event count when the top was last compared with the last event's:
   * while both are unchanged, so is the outcome (no event), and the comparison is skipped.
   */
  checkedStamp: number;
  checkedEvents: number;
}

export interface SimulatedVenueOptions {
  readonly clock: Clock & { advanceTo(ms: number): void };
  readonly instruments: readonly Instrument[];
  readonly fills: FillEngine;
  readonly models: ReadonlyMap<string, MarketModel>;
  readonly latency: Latency;
  readonly commissions: Commissions;
}

export class SimulatedVenue implements Venue {
  readonly name = 'backtest';
  readonly market$ = new Subject<MarketDataEvent>();
  readonly orders$ = new Subject<OrderStreamEvent>();
  readonly requests = new RequestQueue();
  /** Promises were settled (or a lookup started): their continuations must run before time moves on. */
  pendingContinuations = false;
  bookEvents = 0;
  /** Lanes whose trades at `pendingTime` are not published yet (the first `pendingCount`), in the order they first traded. */
  private readonly pending: TapeLane[] = [];
  private pendingCount = 0;
  private readonly lanes = new Map<string, TapeLane>();
  private pendingTime = Number.NaN;
  private readonly scales = new Map<string, InstrumentScales>();
  private readonly feeds = new Map<string, SymbolFeed>();
  private readonly commissionBps: { makerCommissionBasisPoints: number; commissionBasisPoints: number };

  constructor(private readonly options: SimulatedVenueOptions) {
    for (const i of options.instruments) {
      const scales = scalesOf(i);
      this.scales.set(i.symbol, scales);
      this.feeds.set(i.symbol, new SymbolFeed(i.symbol, scales.priceScale, scales.qtyScale));
    }
    this.commissionBps = {
      makerCommissionBasisPoints: options.commissions.makerBps.toNumber(),
      commissionBasisPoints: options.commissions.takerBps.toNumber(),
    };
  }

  feed(symbol: string): SymbolFeed | undefined {
    return this.feeds.get(symbol);
  }

  async instruments(symbols: readonly string[]): Promise<readonly Instrument[]> {
    return this.options.instruments.filter((i) => symbols.includes(i.symbol));
  }

  marketData(): Observable<MarketDataEvent> {
    return this.market$;
  }

  orderUpdates(): Observable<OrderStreamEvent> {
    return this.orders$;
  }

  /** Starts both streams: `connected`, and an empty order snapshot so the tracker starts fresh. */
  connect(): void {
    this.market$.next({ type: 'connected', attempt: 1 });
    this.orders$.next({ type: 'connected', attempt: 1 });
    this.orders$.next({ type: 'snapshot', orders: [], sessionId: SESSION_ID });
  }

  insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]> {
    return this.send(this.options.latency.insertMs, () => {
      const engineRequests = requests.map((r) => this.toEngineOrder(r));
      const ids = engineRequests.map((r) => this.apply(this.options.fills.submit(r)).executions[0]?.order.orderId ?? '');
      for (const r of requests) this.countOrders(r.symbol, 1);
      return ids;
    });
  }

  /** Orders that reached the exchange (inserts, and both legs of a cross) per symbol: the report's bySymbol. */
  readonly ordersBySymbol = new Map<string, number>();

  private countOrders(symbol: string, n: number): void {
    this.ordersBySymbol.set(symbol, (this.ordersBySymbol.get(symbol) ?? 0) + n);
  }

  cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void> {
    return this.send(this.options.latency.cancelMs, () => {
      for (const r of requests) this.apply(this.options.fills.cancel(r.orderId, r.symbol));
    });
  }

  replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void> {
    return this.send(this.options.latency.replaceMs, () => {
      for (const r of requests) {
        const scales = this.scalesOf(r.symbol);
        this.apply(
          this.options.fills.replace({
            orderId: r.orderId,
            symbol: r.symbol,
            newClordId: r.clordId,
            ...(r.price === undefined ? {} : { price: decimalToRawInt(r.price, scales, 'price', 'price') }),
            ...(r.qty === undefined ? {} : { orderQty: decimalToRawInt(r.qty, scales, 'qty', 'qty') }),
          }),
        );
      }
    });
  }

  cross(request: VenueCrossRequest): Promise<readonly string[]> {
    return this.send(this.options.latency.insertMs, () => {
      const legs = [this.toEngineOrder(request.buy), this.toEngineOrder(request.sell)];
      const outcome = this.apply(
        this.options.fills.cross({
          crossId: request.crossId,
          crossType: crossTypeOf(request),
          requests: legs,
        }),
      );
      const ids = new Map<string, string>();
      for (const e of outcome.executions)
        if (e.order.clordId !== undefined && !ids.has(e.order.clordId)) ids.set(e.order.clordId, e.order.orderId);
      this.countOrders(request.buy.symbol, 1);
      this.countOrders(request.sell.symbol, 1);
      return legs.map((l) => ids.get(l.clordId ?? '') ?? '');
    });
  }

  /**
   * The bot's working orders at the simulated exchange. Positions and balances are the portfolio's own in
   * a backtest (nothing else trades the account): none are reported, and only the order stream's opening
   * snapshot, before any fill, triggers a reconciliation.
   */
  async snapshot(accounts: readonly string[]): Promise<VenueSnapshot> {
    this.pendingContinuations = true;
    const openOrders = this.options.fills.engine
      .openOrders()
      .filter((o) => accounts.includes(o.order.account))
      .map((o) => toDomainOrder(o, this.scalesOf(o.order.symbol)));
    return { openOrders, positions: [], balances: [] };
  }

  async close(): Promise<void> {
    this.market$.complete();
    this.orders$.complete();
  }

  /** Applies every request that has reached the exchange by `until`, moving the clock to each arrival. */
  processDue(until: number): void {
    while (this.requests.peekTime() <= until) {
      const request = this.requests.pop();
      if (request === undefined) return;
      this.options.clock.advanceTo(request.arrival);
      request.apply();
    }
  }

  /**
   * The per-symbol state the tape path uses, looked up once (replay-tape.ts keeps one per instrument
   * index, so a trade needs no lookup by symbol).
   */
  lane(symbol: string, model: TapeModel): TapeLane {
    let lane = this.lanes.get(symbol);
    if (lane === undefined || lane.model !== model) {
      lane = {
        symbol,
        model,
        feed: this.feeds.get(symbol),
        resting: this.options.fills.restingOf(symbol),
        pending: false,
        checkedStamp: Number.NaN,
        checkedEvents: Number.NaN,
      };
      this.lanes.set(symbol, lane);
    }
    return lane;
  }

  /**
   * One tape trade: passive fills (on the order stream at once), then the market model. The symbol's book
   * is published by `flushBooks` once the trades of this timestamp are all in (one matching event, e.g. a
   * sweep through several levels, prints several trades at one time and gives one book update).
   */
  onTrade(symbol: string, price: number, qty: number, buy: boolean, time: number, model: TapeModel): void {
    this.trade(this.lane(symbol, model), price, qty, buy, time);
  }

  /** onTrade on a lane. */
  trade(lane: TapeLane, price: number, qty: number, buy: boolean, time: number): void {
    const resting = lane.resting;
    if (resting !== undefined && resting.size > 0) {
      const fills = this.options.fills.passive(resting, lane.symbol, price, qty, buy);
      if (fills !== undefined) this.apply(fills);
    }
    lane.model.onTrade(price, qty, buy, time);
    lane.feed?.onTrade(price, qty);
    if (this.pendingCount > 0 && time !== this.pendingTime) this.flushBooks();
    if (!lane.pending) {
      lane.pending = true;
      this.pending[this.pendingCount++] = lane;
    }
    this.pendingTime = time;
  }

  /** The fills a market trade (p, q, aggressor side) gives the bot's resting orders, on the order stream. */
  passiveFills(symbol: string, price: number, qty: number, buy: boolean): void {
    const fills = this.options.fills.onTrade(symbol, price, qty, buy);
    if (fills !== undefined) this.apply(fills);
  }

  /** Time of the trades whose books are not published yet (NaN when none). */
  get pendingBookTime(): number {
    return this.pendingCount === 0 ? Number.NaN : this.pendingTime;
  }

  /** Publishes the books the last trades touched, where their best bid or offer price moved. */
  flushBooks(): void {
    const pending = this.pending;
    for (let i = 0; i < this.pendingCount; i++) {
      const lane = pending[i] as TapeLane;
      lane.pending = false;
      // the lane traded at pendingTime, so its book is expired as of then: only a changed top can publish
      const feed = lane.feed;
      if (feed === undefined || (lane.model.topStamp === lane.checkedStamp && feed.events === lane.checkedEvents)) continue;
      this.publishLane(lane.model, feed, this.pendingTime);
      lane.checkedStamp = lane.model.topStamp;
      lane.checkedEvents = feed.events;
    }
    this.pendingCount = 0;
  }

  /** Emits the symbol's book when its best bid or offer price differs from the last event's. */
  publishIfMoved(symbol: string, time: number): void {
    const model = this.options.models.get(symbol);
    if (model !== undefined) this.publishLane(model, this.feeds.get(symbol), time);
  }

  private publishLane(model: MarketModel, feed: SymbolFeed | undefined, time: number): void {
    if (feed === undefined) return;
    const bids = model.levels('bid', time);
    const asks = model.levels('ask', time);
    if (!feed.topChanged(bids, asks)) return;
    this.publish(feed.event(bids, asks, time, 'INSTRUMENT_STATE_OPEN'));
  }

  /** Emits a recorded market lifecycle event (connected, disconnected) as is. */
  publishMarket(event: MarketDataEvent): void {
    this.market$.next(event);
  }

  /** Caps the queue estimates of the bot's resting orders in `symbol` (see FillEngine.capQueueAhead). */
  capQueueAhead(symbol: string, shown: (buy: boolean, price: number) => number | undefined): void {
    this.options.fills.capQueueAhead(symbol, shown);
  }

  /** Emits a book event as is (recorded books, settlement). */
  publish(event: BookEvent): void {
    this.bookEvents++;
    this.market$.next(event);
  }

  /** Settles an expiring contract at 0 or 1 (raw 0 or price_scale): bot orders expire. */
  settle(symbol: string, rawPrice: number, time: number): void {
    this.apply(this.options.fills.settle(symbol, rawPrice));
    const feed = this.feeds.get(symbol);
    if (feed === undefined) return;
    feed.settled(rawPrice);
    this.publish(feed.event([], [], time, 'INSTRUMENT_STATE_EXPIRED'));
  }

  /**
   * An expiring contract without a settlement price in the data: the bot's working orders expire. No book is
   * published (an EXPIRED book without a settlement price would have the pipeline settle by reconciliation).
   */
  expire(symbol: string): void {
    this.apply(this.options.fills.expire(symbol));
  }

  private send<T>(latencyMs: number, run: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.requests.push(this.options.clock.now() + latencyMs, () => {
        this.pendingContinuations = true;
        try {
          resolve(run());
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  private apply(outcome: BotOutcome): BotOutcome {
    for (const e of outcome.executions) this.orders$.next(executionEvent(e, this.scalesOf(e.order.symbol), this.options.commissions));
    for (const r of outcome.cancelRejects) this.orders$.next(cancelRejectEvent(r));
    return outcome;
  }

  private scalesOf(symbol: string): InstrumentScales {
    const scales = this.scales.get(symbol);
    if (scales === undefined)
      throw new TradebotError('BACKTEST_UNKNOWN_SYMBOL', `no instrument ${symbol} in the data`, { kind: 'rejection' });
    return scales;
  }

  private toEngineOrder(r: VenueOrderRequest): OrderRequest {
    const scales = this.scalesOf(r.symbol);
    try {
      return {
        symbol: r.symbol,
        side: WIRE_SIDE[r.side],
        type: WIRE_ORDER_TYPE[r.type],
        orderQty: decimalToRawInt(r.qty, scales, 'qty', 'order_qty'),
        ...(r.price === undefined || r.type === 'MARKET_TO_LIMIT' ? {} : { price: decimalToRawInt(r.price, scales, 'price', 'price') }),
        timeInForce: WIRE_TIME_IN_FORCE[r.timeInForce],
        participateDontInitiate: r.postOnly,
        account: r.account,
        clordId: r.clordId,
        ...(r.selfMatchPreventionInstruction === undefined ? {} : { selfMatchPreventionInstruction: r.selfMatchPreventionInstruction }),
        ...this.commissionBps,
      };
    } catch (error) {
      throw new TradebotError('BACKTEST_ORDER_INVALID', `order ${r.clordId}: ${error instanceof Error ? error.message : String(error)}`, {
        kind: 'validation',
        cause: error,
      });
    }
  }
}
