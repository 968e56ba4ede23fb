/**
 * The matching engine facade: the one class the simulator and the backtest use. Each mutating call reads
 * the injected clock once, first expires good-till-time orders that are due, applies the request and
 * returns an `EngineResult` with every execution, trade, cancel reject and instrument event it caused, in
 * emission order. Calls are synchronous and do no I/O. Misuse (unknown instrument in an admin call, bad
 * instrument definition, bad clock) throws a TradebotError with a MATCHING_* code; order rejections never
 * throw, they are REJECTED executions or cancel rejects.
 */
import { validateOrder, normalizeTif, type Rejection } from './validation.ts';
import { TradebotError } from '../../errors.ts';
import { checkCross, crossOrders, type CrossProblem } from './cross.ts';
import { EngineState } from './engine-state.ts';
import type { EngineResult } from './events.ts';
import { parseId } from './ids.ts';
import { bookOrThrow, setInstrumentState, settle } from './instrument-state.ts';
import { cancelOrder, expireDue, expireWhere, massCancel, replaceOrder } from './lifecycle.ts';
import { OrderBook } from './order-book.ts';
import type { Instrument } from './order-book.ts';
import { submitOrder } from './order-entry.ts';
import { exportEngine, importEngine, type EngineJson } from './snapshot.ts';
import type { OrderSnapshot } from './order.ts';
import { InstrumentState } from './types.ts';
import type {
  Bbo,
  BookView,
  CancelRequest,
  Clock,
  CrossRequest,
  Depth,
  InstrumentDefinition,
  InstrumentInfo,
  MassCancelRequest,
  OpenOrdersFilter,
  OrderRequest,
  ReplaceRequest,
} from './types.ts';

export interface MatchingEngineOptions {
  clock: Clock;
  /** Prefix of every id this engine issues (orders "<p>O…", executions "<p>E…", trades "<p>T…"). */
  idPrefix?: string;
}

export class MatchingEngine {
  private readonly st: EngineState;
  private readonly clock: Clock;

  constructor(options: MatchingEngineOptions) {
    if (options === undefined || options.clock === undefined || typeof options.clock.now !== 'function') {
      throw new TradebotError('MATCHING_BAD_CLOCK', 'MatchingEngine needs options.clock with a now() returning epoch ms', {
        kind: 'config',
      });
    }
    this.clock = options.clock;
    this.st = new EngineState(options.clock, options.idPrefix ?? '');
  }

  // ---- instruments ----

  /** Register an instrument. Throws MATCHING_INVALID_INSTRUMENT / MATCHING_DUPLICATE_INSTRUMENT. */
  addInstrument(def: InstrumentDefinition): void {
    const instrument = checkDefinition(def);
    if (this.st.books.has(instrument.symbol)) {
      throw new TradebotError('MATCHING_DUPLICATE_INSTRUMENT', `instrument ${instrument.symbol} is already defined`, {
        kind: 'validation',
      });
    }
    this.st.books.set(instrument.symbol, new OrderBook(instrument, def.state ?? 'INSTRUMENT_STATE_OPEN'));
  }

  instrument(symbol: string): InstrumentInfo | undefined {
    return this.st.books.get(symbol)?.info();
  }

  symbols(): string[] {
    return [...this.st.books.keys()];
  }

  /** Change an instrument's state and apply its effect (uncross, expiry; see instrument-state.ts). */
  setInstrumentState(symbol: string, state: InstrumentState): EngineResult {
    const out = this.begin();
    setInstrumentState(this.st, symbol, state);
    return out;
  }

  /** Settle at 0 or price_scale raw; expires the instrument first if needed; emits a SETTLEMENT event. */
  settle(symbol: string, price: number): EngineResult {
    const out = this.begin();
    settle(this.st, symbol, price);
    return out;
  }

  // ---- orders ----

  /**
   * The rejection `submit` would give this request on entry validation (symbol, state, quantity, price,
   * type, time in force), without touching the engine; null when it would be accepted for matching.
   */
  check(request: OrderRequest): Rejection | null {
    return validateOrder(request, this.st.books.get(request.symbol), normalizeTif(request.timeInForce), this.clock.now());
  }

  submit(request: OrderRequest): EngineResult {
    const out = this.begin();
    submitOrder(this.st, request);
    return out;
  }

  cancel(request: CancelRequest): EngineResult {
    const out = this.begin();
    cancelOrder(this.st, request);
    return out;
  }

  replace(request: ReplaceRequest): EngineResult {
    const out = this.begin();
    replaceOrder(this.st, request);
    return out;
  }

  /**
   * The refusal `cross` would give this request (both legs REJECTED, `leg` the one at fault or -1), without
   * touching the engine; null when the cross would be executed. Good-till-time orders already due count as
   * resting until a mutating call expires them.
   */
  checkCross(request: CrossRequest): CrossProblem | null {
    return checkCross(this.st, request, this.clock.now());
  }

  cross(request: CrossRequest): EngineResult {
    const out = this.begin();
    crossOrders(this.st, request);
    return out;
  }

  /** Cancel working orders of an account and/or symbol (no filter: every working order). */
  massCancel(filter: MassCancelRequest = {}): EngineResult {
    const out = this.begin();
    massCancel(this.st, filter);
    return out;
  }

  /** Expire GOOD_TILL_TIME orders due at `now` (default: the clock). Mutating calls also do this first. */
  expire(now?: number): EngineResult {
    const out = this.begin();
    if (now !== undefined) {
      if (!Number.isSafeInteger(now))
        throw new TradebotError('MATCHING_BAD_CLOCK', `expire(now): now must be integer epoch ms, got ${now}`);
      this.st.now = now;
    }
    expireDue(this.st, this.st.now);
    return out;
  }

  /** Expire every working DAY order (of one symbol, or of all instruments). */
  endOfDay(symbol?: string): EngineResult {
    const out = this.begin();
    if (symbol !== undefined) bookOrThrow(this.st, symbol);
    expireWhere(
      this.st,
      (o) => o.terms.timeInForce === 'TIME_IN_FORCE_DAY' && (symbol === undefined || o.terms.symbol === symbol),
      'end of day',
    );
    return out;
  }

  // ---- views ----

  /** Read-only view of a book. Throws MATCHING_UNKNOWN_INSTRUMENT. */
  book(symbol: string): BookView {
    return bookOrThrow(this.st, symbol);
  }

  depth(symbol: string, levels?: number): Depth {
    return bookOrThrow(this.st, symbol).depth(levels);
  }

  bbo(symbol: string): Bbo {
    return bookOrThrow(this.st, symbol).bbo();
  }

  lastTradePrice(symbol: string): number | undefined {
    return bookOrThrow(this.st, symbol).lastPx;
  }

  /** Snapshot of a WORKING order (resting or held stop); undefined once it is done. */
  getOrder(orderId: string): OrderSnapshot | undefined {
    const seq = parseId(this.st.ids.orderPrefix, orderId);
    return seq === 0 ? undefined : this.st.orders.get(seq)?.snapshot();
  }

  /** Snapshots of working orders, in entry order, optionally filtered by account and/or symbol. */
  openOrders(filter: OpenOrdersFilter = {}): OrderSnapshot[] {
    const out: OrderSnapshot[] = [];
    for (const o of this.st.ordersOf(filter.symbol)) {
      if (filter.account !== undefined && o.terms.account !== filter.account) continue;
      out.push(o.snapshot());
    }
    return out;
  }

  // ---- persistence (the simulator's state file) ----

  /** Working orders, id counters and book states as JSON (snapshot.ts). */
  exportState(): EngineJson {
    return exportEngine(this.st);
  }

  /** Restores `exportState()` output into this engine, which must have no working orders; emits nothing. */
  importState(state: EngineJson): void {
    importEngine(this.st, state);
  }

  private begin(): EngineResult {
    const st = this.st;
    const out = st.begin();
    if (st.expiries.peekTime() <= st.now) expireDue(st, st.now);
    return out;
  }
}

const STATES = new Set<string>(Object.values(InstrumentState));

function checkDefinition(def: InstrumentDefinition): Instrument {
  const fail = (what: string): never => {
    throw new TradebotError('MATCHING_INVALID_INSTRUMENT', `instrument ${String(def?.symbol)}: ${what}`, { kind: 'validation' });
  };
  if (typeof def !== 'object' || def === null) fail('definition must be an object');
  if (typeof def.symbol !== 'string' || def.symbol === '') fail('symbol must be a non-empty string');
  const positive = (v: unknown, name: string): number => {
    if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0)
      fail(`${name} must be a positive integer (raw units), got ${String(v)}`);
    return v as number;
  };
  const tickSize = positive(def.tickSize, 'tickSize');
  const lotSize = positive(def.lotSize, 'lotSize');
  const priceScale = positive(def.priceScale, 'priceScale');
  const low = def.priceLimitLow;
  const high = def.priceLimitHigh;
  if (!Number.isSafeInteger(low) || !Number.isSafeInteger(high) || low < 0 || low > high) {
    fail(`price limits must be integers with 0 <= priceLimitLow <= priceLimitHigh, got [${low}, ${high}]`);
  }
  const bound = Math.floor(Number.MAX_SAFE_INTEGER / Math.max(high, 1));
  const maxOrderQty = def.maxOrderQty === undefined ? bound : positive(def.maxOrderQty, 'maxOrderQty');
  if (maxOrderQty > bound) {
    fail(`maxOrderQty ${maxOrderQty} x priceLimitHigh ${high} would exceed Number.MAX_SAFE_INTEGER; use at most ${bound}`);
  }
  if (def.state !== undefined && !STATES.has(def.state)) fail(`unknown state ${String(def.state)}`);
  return { symbol: def.symbol, tickSize, lotSize, priceLimitLow: low, priceLimitHigh: high, priceScale, maxOrderQty };
}
