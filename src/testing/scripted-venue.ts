/**
 * ScriptedVenue: an in-memory exchange whose every answer the test decides, for running the real pipeline
 * without a network. It implements the engine's Venue port: reference data from `ScriptedInstrument`s, books
 * and trades the test publishes (ScriptedBooks), and order entry answered by a policy per call kind:
 *
 * - insert `match` (default): acknowledged; a limit order that crosses the scripted book takes the levels it
 *   crosses at their prices (IOC/FOK remainders are cancelled, a post-only order that would take is rejected,
 *   a price off the tick or outside the limits is rejected); anything left rests until the test fills it;
 * - `accept`: acknowledged and left resting, never matched; `hold`: the call stays unanswered (the engine sees
 *   the order pending) until the test accepts or rejects the held call; `{ reject: text }`: rejected;
 * - cancel / replace: `accept` (default), `hold` or `{ reject: text }` (a cancel reject on the order stream).
 *
 * Answers never run inside the engine's own call: they are queued as jobs the harness runs one at a time
 * (`runJob`), the call's promise first, then its order-stream events, so a run is deterministic.
 */
import { Subject, type Observable } from 'rxjs';
import { Decimal, ZERO, isMultipleOf } from '../domain/decimal.ts';
import type { CxlRejReason, Instrument, Position } from '../domain/index.ts';
import type { MarketDataEvent, OrderStreamEvent } from '../domain/stream-events.ts';
import type {
  Venue,
  VenueCancelRequest,
  VenueCrossRequest,
  VenueOrderRequest,
  VenueReplaceRequest,
  VenueSnapshot,
} from '../engine/venue.ts';
import { testingError } from './errors.ts';
import { ScriptedBooks, type BookInput } from './scripted-book.ts';
import { ReportFactory, SCRIPTED_SESSION, VenueOrder, type ScriptedOrderView } from './venue-orders.ts';

/** How the venue answers a cancel or replace call (and an insert, besides `match`). */
export type CallAnswer = 'accept' | 'hold' | { readonly reject: string };
/** How the venue answers an insert: `match` (default) or a CallAnswer. */
export type InsertAnswer = 'match' | CallAnswer;

/** The venue's answers; each a fixed answer or a function of the order (and the change, for a replace). */
export interface ScriptedVenuePolicy {
  readonly insert: InsertAnswer | ((order: ScriptedOrderView) => InsertAnswer);
  readonly cancel: CallAnswer | ((order: ScriptedOrderView) => CallAnswer);
  readonly replace:
    | CallAnswer
    | ((order: ScriptedOrderView, change: { readonly price: Decimal | undefined; readonly qty: Decimal | undefined }) => CallAnswer);
}

/** A call the venue holds (policy `hold`): the test answers it. */
export interface HeldCall {
  readonly kind: 'insert' | 'cancel' | 'replace';
  readonly order: ScriptedOrderView;
  /** Accepts it (a held insert is acknowledged and then matched against the book, as under `match`). */
  accept(): void;
  /** Rejects it (an insert: a REJECTED execution; a cancel or replace: a cancel reject). */
  reject(text?: string): void;
}

/** A position the account holds before the run (the engine learns it from the start-up reconciliation). */
export interface StartingPosition {
  readonly symbol: string;
  readonly qty: string;
  /** Average entry price (default "0"). */
  readonly price?: string;
  readonly account?: string;
}

export const DEFAULT_POLICY: ScriptedVenuePolicy = { insert: 'match', cancel: 'accept', replace: 'accept' };

export class ScriptedVenue implements Venue {
  readonly name = 'scripted';
  readonly books: ScriptedBooks;
  policy: ScriptedVenuePolicy = DEFAULT_POLICY;
  /** Grows with every call, answer and event: the harness settles when it stops moving. */
  activity = 0;
  private readonly market$ = new Subject<MarketDataEvent>();
  private readonly orders$ = new Subject<OrderStreamEvent>();
  private readonly reports = new ReportFactory();
  private readonly orders: VenueOrder[] = [];
  private readonly jobs: (() => void)[] = [];
  private readonly held: HeldCall[] = [];
  private readonly positions = new Map<string, { account: string; symbol: string; qty: Decimal; price: Decimal }>();
  private orderIds = 0;
  private closed = false;

  constructor(
    private readonly instrumentList: readonly Instrument[],
    private readonly now: () => number,
    private readonly defaultAccount: string,
    starting: readonly StartingPosition[] = [],
  ) {
    this.books = new ScriptedBooks(instrumentList.map((i) => i.symbol));
    for (const p of starting) {
      const account = p.account ?? defaultAccount;
      this.positions.set(`${account}|${p.symbol}`, {
        account,
        symbol: p.symbol,
        qty: new Decimal(p.qty),
        price: new Decimal(p.price ?? '0'),
      });
    }
  }

  async instruments(symbols: readonly string[]): Promise<readonly Instrument[]> {
    return this.instrumentList.filter((i) => symbols.includes(i.symbol));
  }

  marketData(): Observable<MarketDataEvent> {
    return this.market$;
  }

  /** The order stream: `connected` and an empty snapshot on subscription (as live), then executions. */
  orderUpdates(): Observable<OrderStreamEvent> {
    this.jobs.push(() => {
      this.emitOrder({ type: 'connected', attempt: 1 });
      this.emitOrder({ type: 'snapshot', orders: [], sessionId: SCRIPTED_SESSION });
    });
    return this.orders$;
  }

  insertOrders(requests: readonly VenueOrderRequest[]): Promise<readonly string[]> {
    this.activity += 1;
    const orders = requests.map((r) => this.newOrder(r));
    return this.batch(
      orders,
      (order, done) => this.answerInsert(order, done),
      () => orders.map((o) => o.orderId),
    );
  }

  cancelOrders(requests: readonly VenueCancelRequest[]): Promise<void> {
    this.activity += 1;
    return this.batch(
      requests,
      (r, done) => {
        const order = this.find(r.orderId, r.clordId);
        if (order === undefined || order.status !== 'open') return this.refuse(r.clordId, r.orderId, order, false, done);
        const answer = typeof this.policy.cancel === 'function' ? this.policy.cancel(order) : this.policy.cancel;
        this.answerCall(
          'cancel',
          order,
          answer,
          done,
          () => this.cancelOrder(order),
          (text) =>
            this.emitOrder(this.reports.cancelReject(r.clordId, order.orderId, 'CXL_REJ_REASON_EXCHANGE_OPTION', text, false, this.now())),
        );
      },
      () => undefined,
    );
  }

  replaceOrders(requests: readonly VenueReplaceRequest[]): Promise<void> {
    this.activity += 1;
    return this.batch(
      requests,
      (r, done) => {
        const order = this.find(r.orderId, undefined);
        if (order === undefined || order.status !== 'open') return this.refuse(r.clordId, r.orderId, order, true, done);
        const p = this.policy.replace;
        const answer = typeof p === 'function' ? p(order, { price: r.price, qty: r.qty }) : p;
        const apply = () => {
          if (order.status !== 'open')
            return this.emitOrder(
              this.reports.cancelReject(
                r.clordId,
                order.orderId,
                'CXL_REJ_REASON_TOO_LATE_TO_CANCEL',
                'the order is no longer working',
                true,
                this.now(),
              ),
            );
          if (r.price !== undefined) order.price = r.price;
          if (r.qty !== undefined) order.qty = r.qty;
          order.clordIds.push(r.clordId);
          if (order.filledQty.gte(order.qty)) order.status = 'filled';
          this.emitOrder(this.reports.execution(order, 'EXECUTION_TYPE_REPLACE', this.now()));
        };
        this.answerCall('replace', order, answer, done, apply, (text) =>
          this.emitOrder(this.reports.cancelReject(r.clordId, order.orderId, 'CXL_REJ_REASON_EXCHANGE_OPTION', text, true, this.now())),
        );
      },
      () => undefined,
    );
  }

  /** A cross between two of the firm's accounts: both legs acknowledged and filled in full at the cross price. */
  cross(request: VenueCrossRequest): Promise<readonly string[]> {
    this.activity += 1;
    const legs = [request.buy, request.sell].map((leg) => this.newOrder(leg, request.crossId));
    return new Promise((resolve) => {
      this.jobs.push(() => resolve(legs.map((l) => l.orderId)));
      this.jobs.push(() => {
        for (const leg of legs) {
          leg.status = 'open';
          this.emitOrder(this.reports.execution(leg, 'EXECUTION_TYPE_NEW', this.now()));
        }
        for (const leg of legs) this.fillOrder(leg, leg.qty, request.buy.price ?? ZERO, true);
      });
    });
  }

  async snapshot(accounts: readonly string[]): Promise<VenueSnapshot> {
    const time = this.now();
    const positions: Position[] = [...this.positions.values()]
      .filter((p) => accounts.includes(p.account) && !p.qty.isZero())
      .map((p) => ({
        account: p.account,
        symbol: p.symbol,
        netPosition: p.qty,
        openBuyQty: ZERO,
        openSellQty: ZERO,
        avgEntryPx: p.price,
        costBasis: p.qty.times(p.price),
        realizedPnl: ZERO,
        updateTime: time,
      }));
    return {
      openOrders: this.orders.filter((o) => o.status === 'open' && accounts.includes(o.account)).map((o) => o.toDomain(time)),
      positions,
      balances: [],
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.market$.complete();
    this.orders$.complete();
  }

  /** Sets `symbol`'s book (the rest of the market) and publishes it with the bot's own resting orders added. */
  setBook(symbol: string, book: BookInput): void {
    this.books.set(symbol, book);
    this.publishBook(symbol);
  }

  /** Prints a trade on the market (anyone's) and publishes the book that carries it. */
  printTrade(symbol: string, price: string, qty: string | number): void {
    this.books.trade(symbol, price, qty);
    this.publishBook(symbol);
  }

  /** Publishes a market data event now (e.g. a feed `disconnected` event). */
  publish(event: MarketDataEvent): void {
    this.activity += 1;
    if (!this.closed) this.market$.next(event);
  }

  private publishBook(symbol: string): void {
    const own = this.orders
      .filter((o) => o.symbol === symbol && o.status === 'open' && o.price !== undefined)
      .map((o) => ({ side: o.side, price: o.price ?? ZERO, qty: o.leavesQty }));
    this.publish(this.books.event(symbol, this.now(), own));
  }

  /** Runs the oldest queued answer; false when none is queued. */
  runJob(): boolean {
    const job = this.jobs.shift();
    if (job === undefined) return false;
    this.activity += 1;
    job();
    return true;
  }

  /** Every order the venue has received, oldest first. */
  allOrders(): readonly ScriptedOrderView[] {
    return this.orders;
  }

  /** Calls held by the `hold` policy and not answered yet, oldest first. */
  heldCalls(): readonly HeldCall[] {
    return this.held;
  }

  /** Fills `order` (open at the venue) by `qty` at `price`, as a resting order taken by someone else. */
  fill(view: ScriptedOrderView, qty: Decimal, price: Decimal): void {
    const order = this.own(view);
    if (order.status !== 'open')
      throw testingError(
        'TESTING_ORDER_NOT_OPEN',
        `order ${order.clordId} (${order.orderId}) is ${order.status} at the venue: only an open order can be filled`,
        { clordId: order.clordId },
      );
    if (!qty.isPositive() || qty.isZero() || qty.gt(order.leavesQty)) {
      throw testingError(
        'TESTING_INVALID_FILL',
        `order ${order.clordId}: a fill of ${qty.toFixed()} does not fit its ${order.leavesQty.toFixed()} left`,
        { clordId: order.clordId },
      );
    }
    this.fillOrder(order, qty, price, false);
  }

  /** Cancels `order` on the venue's own initiative (an unsolicited cancel). */
  cancelUnsolicited(view: ScriptedOrderView): void {
    const order = this.own(view);
    if (order.status !== 'open')
      throw testingError(
        'TESTING_ORDER_NOT_OPEN',
        `order ${order.clordId} is ${order.status} at the venue: only an open order can be cancelled`,
        { clordId: order.clordId },
      );
    this.cancelOrder(order);
  }

  private newOrder(request: VenueOrderRequest, crossId = ''): VenueOrder {
    this.orderIds += 1;
    const order = new VenueOrder(`V${this.orderIds}`, request, this.now(), crossId);
    order.status = 'held';
    this.orders.push(order);
    return order;
  }

  private answerInsert(order: VenueOrder, done: () => void): void {
    const p = this.policy.insert;
    const answer = typeof p === 'function' ? p(order) : p;
    const accept = () => {
      const invalid = this.invalid(order);
      if (invalid !== undefined) return this.rejectInsert(order, invalid);
      order.status = 'open';
      this.emitOrder(this.reports.execution(order, 'EXECUTION_TYPE_NEW', this.now()));
      if (answer !== 'accept') this.match(order);
    };
    // the insert's id comes first (the promise, once every order of the batch is answered), then its events
    this.answerCall('insert', order, answer === 'match' ? 'accept' : answer, done, accept, (text) => this.rejectInsert(order, text));
  }

  private answerCall(
    kind: HeldCall['kind'],
    order: VenueOrder,
    answer: CallAnswer,
    done: () => void,
    accept: () => void,
    reject: (text: string) => void,
  ): void {
    if (answer === 'hold') {
      const call: HeldCall = {
        kind,
        order,
        accept: () => this.release(call, () => accept()),
        reject: (text = 'rejected by the test') => this.release(call, () => reject(text)),
      };
      this.held.push(call);
      this.activity += 1;
      // answered only once the test answers: the call's promise resolves then
      this.heldDone.set(call, done);
      return;
    }
    done();
    this.jobs.push(answer === 'accept' ? accept : () => reject(answer.reject));
  }

  private readonly heldDone = new Map<HeldCall, () => void>();

  private release(call: HeldCall, answer: () => void): void {
    const index = this.held.indexOf(call);
    if (index < 0)
      throw testingError('TESTING_NO_HELD_CALL', `the held ${call.kind} of ${call.order.clordId} was answered already`, {
        clordId: call.order.clordId,
      });
    this.held.splice(index, 1);
    this.heldDone.get(call)?.();
    this.heldDone.delete(call);
    this.jobs.push(answer);
    this.activity += 1;
  }

  /**
   * Answers each request of one call; the call's promise resolves (with `value()`) once all are answered: before
   * their queued events when they are answered at once, else when the test answers the last held one.
   */
  private batch<R, T>(requests: readonly R[], each: (request: R, done: () => void) => void, value: () => T): Promise<T> {
    return new Promise((resolve) => {
      const mark = this.jobs.length;
      let answered = 0;
      let during = true;
      const done = () => {
        answered += 1;
        if (answered < requests.length) return;
        const job = () => resolve(value());
        if (during) this.jobs.splice(mark, 0, job);
        else this.jobs.push(job);
      };
      for (const request of requests) each(request, done);
      during = false;
      if (requests.length === 0) this.jobs.push(() => resolve(value()));
    });
  }

  /** A cancel or replace of an order the venue does not work (finished, or unknown): a cancel reject. */
  private refuse(clordId: string, orderId: string, order: VenueOrder | undefined, isReplace: boolean, done: () => void): void {
    const reason: CxlRejReason = order === undefined ? 'CXL_REJ_REASON_UNKNOWN_ORDER' : 'CXL_REJ_REASON_TOO_LATE_TO_CANCEL';
    done();
    this.jobs.push(() =>
      this.emitOrder(
        this.reports.cancelReject(
          clordId,
          orderId,
          reason,
          order === undefined ? 'unknown order' : `the order is ${order.status}`,
          isReplace,
          this.now(),
        ),
      ),
    );
  }

  private invalid(order: VenueOrder): string | undefined {
    const instrument = this.instrumentList.find((i) => i.symbol === order.symbol);
    if (instrument === undefined) return `unknown symbol ${order.symbol}`;
    if (order.price === undefined) return undefined;
    if (!isMultipleOf(order.price, instrument.tickSize))
      return `price ${order.price.toFixed()} is not a multiple of the tick ${instrument.tickSize.toFixed()}`;
    if (order.price.lt(instrument.lowPriceLimit) || order.price.gt(instrument.highPriceLimit))
      return `price ${order.price.toFixed()} is outside ${instrument.lowPriceLimit.toFixed()}..${instrument.highPriceLimit.toFixed()}`;
    return undefined;
  }

  /** Takes the scripted book's crossing levels for a just-acknowledged order (see the module comment). */
  private match(order: VenueOrder): void {
    const { levels, total } = this.books.takeable(order.symbol, order.side, order.price);
    if (levels.length > 0 && order.postOnly)
      return this.finish(order, 'EXECUTION_TYPE_REJECTED', 'rejected', 'post-only order would take liquidity');
    if (order.timeInForce === 'TIME_IN_FORCE_FILL_OR_KILL' && total.lt(order.qty))
      return this.finish(order, 'EXECUTION_TYPE_CANCELED', 'canceled', 'fill-or-kill: not enough liquidity');
    for (const level of levels) {
      const qty = Decimal.min(level.qty, order.leavesQty);
      if (qty.isZero()) break;
      this.books.consume(order.symbol, order.side, level.px, qty);
      this.fillOrder(order, qty, level.px, true);
    }
    const immediate =
      order.timeInForce === 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' ||
      order.timeInForce === 'TIME_IN_FORCE_FILL_OR_KILL' ||
      order.price === undefined;
    if (order.status === 'open' && immediate)
      this.finish(order, 'EXECUTION_TYPE_CANCELED', 'canceled', 'immediate order: remainder cancelled');
  }

  private fillOrder(order: VenueOrder, qty: Decimal, price: Decimal, aggressor: boolean): void {
    order.fill(qty, price);
    const key = `${order.account}|${order.symbol}`;
    const held = this.positions.get(key) ?? { account: order.account, symbol: order.symbol, qty: ZERO, price: ZERO };
    this.positions.set(key, { ...held, qty: order.side === 'BUY' ? held.qty.plus(qty) : held.qty.minus(qty), price });
    this.emitOrder(
      this.reports.execution(order, order.status === 'filled' ? 'EXECUTION_TYPE_FILL' : 'EXECUTION_TYPE_PARTIAL_FILL', this.now(), {
        last: { px: price, qty },
        aggressor,
      }),
    );
  }

  private cancelOrder(order: VenueOrder): void {
    if (order.status !== 'open')
      return this.emitOrder(
        this.reports.cancelReject(
          order.clordId,
          order.orderId,
          'CXL_REJ_REASON_TOO_LATE_TO_CANCEL',
          `the order is ${order.status}`,
          false,
          this.now(),
        ),
      );
    this.finish(order, 'EXECUTION_TYPE_CANCELED', 'canceled', '');
  }

  private rejectInsert(order: VenueOrder, text: string): void {
    this.finish(order, 'EXECUTION_TYPE_REJECTED', 'rejected', text);
  }

  private finish(
    order: VenueOrder,
    type: 'EXECUTION_TYPE_CANCELED' | 'EXECUTION_TYPE_REJECTED',
    status: 'canceled' | 'rejected',
    text: string,
  ): void {
    order.status = status;
    this.emitOrder(this.reports.execution(order, type, this.now(), { text }));
  }

  private find(orderId: string, clordId: string | undefined): VenueOrder | undefined {
    return this.orders.find((o) => (orderId !== '' && o.orderId === orderId) || (clordId !== undefined && o.clordIds.includes(clordId)));
  }

  private own(view: ScriptedOrderView): VenueOrder {
    const order = this.orders.find((o) => o.orderId === view.orderId);
    if (order === undefined)
      throw testingError('TESTING_NO_ORDER', `order ${view.orderId} is not an order of this venue`, { orderId: view.orderId });
    return order;
  }

  private emitOrder(event: OrderStreamEvent): void {
    this.activity += 1;
    if (!this.closed) this.orders$.next(event);
  }
}
