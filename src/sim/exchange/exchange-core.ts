/**
 * The simulated exchange's single source of truth, shared by every door into it (gateway REST, family A
 * REST, gRPC): the matching engine, instruments, the ledger, the order history and the trade tape. Every
 * command goes through `apply`, which records the engine's result and publishes it on `events$`, so an
 * order sent through any door shows up in every stream, search and position.
 */
import { Subject } from 'rxjs';
import { Decimal } from '../../domain/decimal.ts';
import { MatchingEngine, type EngineResult, type Execution, type OrderSnapshot, type Trade, type CancelReject, type InstrumentEvent } from '../matching/index.ts';
import type { CancelRequest, Clock, CrossRequest, InstrumentState, MassCancelRequest, OrderRequest, ReplaceRequest } from '../matching/types.ts';
import { buildInstrument, type SimInstrument } from './instruments.ts';
import { Ledger, type LedgerPosition } from './ledger.ts';
import type { SimInstrumentConfig } from '../config.ts';

export type CoreEvent =
  /** `fills` and `lastTradeId` are the order's as of this execution (price -> filled raw qty). */
  | { kind: 'execution'; execution: Execution; fills: ReadonlyMap<number, number>; lastTradeId: string | undefined }
  | { kind: 'cancelReject'; reject: CancelReject }
  | { kind: 'trade'; trade: Trade }
  | { kind: 'book'; symbol: string }
  | { kind: 'instrument'; event: InstrumentEvent }
  | { kind: 'position'; position: LedgerPosition };

export interface OrderRecord {
  latest: OrderSnapshot;
  fills: Map<number, number>;
  lastTradeId: string | undefined;
  lastTransactTime: number | undefined;
}

/** Running session statistics per symbol, in raw integers (prices) and raw quantities. */
export interface SymbolStats {
  open: number | undefined;
  high: number | undefined;
  low: number | undefined;
  last: number | undefined;
  sharesTraded: number;
  /** Sum of raw price x raw qty. */
  notionalTraded: number;
  settlement: number | undefined;
}

export interface ExchangeCoreOptions {
  clock: Clock;
  instruments: readonly SimInstrumentConfig[];
  startingBalance: Decimal;
  currency: string;
  /** Most recent trades kept for search (older ones are dropped). */
  maxTrades?: number;
}

export class ExchangeCore {
  readonly engine: MatchingEngine;
  readonly ledger: Ledger;
  readonly currency: string;
  readonly events$ = new Subject<CoreEvent>();
  private readonly instrumentMap = new Map<string, SimInstrument>();
  private readonly orders = new Map<string, OrderRecord>();
  /** (account, clord_id) -> order id of every order ever inserted: a repeated insert is answered, not re-run. */
  private readonly clordIndex = new Map<string, string>();
  private readonly tape: Trade[] = [];
  private readonly statsBySymbol = new Map<string, SymbolStats>();
  private readonly maxTrades: number;

  constructor(private readonly options: ExchangeCoreOptions) {
    this.engine = new MatchingEngine({ clock: options.clock });
    this.ledger = new Ledger(options.startingBalance);
    this.currency = options.currency;
    this.maxTrades = options.maxTrades ?? 200_000;
    options.instruments.forEach((config, index) => {
      const instrument = buildInstrument(config, index);
      this.instrumentMap.set(instrument.symbol, instrument);
      this.engine.addInstrument(instrument.definition);
    });
  }

  get clock(): Clock {
    return this.options.clock;
  }

  instrument(symbol: string): SimInstrument | undefined {
    return this.instrumentMap.get(symbol);
  }

  instruments(): SimInstrument[] {
    return [...this.instrumentMap.values()];
  }

  instrumentState(symbol: string): InstrumentState {
    return this.engine.instrument(symbol)?.state ?? 'INSTRUMENT_STATE_CLOSED';
  }

  submit(request: OrderRequest): EngineResult {
    return this.apply(this.engine.submit(request));
  }

  cancel(request: CancelRequest): EngineResult {
    return this.apply(this.engine.cancel(request));
  }

  replace(request: ReplaceRequest): EngineResult {
    return this.apply(this.engine.replace(request));
  }

  cross(request: CrossRequest): EngineResult {
    return this.apply(this.engine.cross(request));
  }

  massCancel(filter: MassCancelRequest): EngineResult {
    return this.apply(this.engine.massCancel(filter));
  }

  setInstrumentState(symbol: string, state: InstrumentState): EngineResult {
    return this.apply(this.engine.setInstrumentState(symbol, state));
  }

  settle(symbol: string, price: 0 | 1): EngineResult {
    const instrument = this.instrumentMap.get(symbol);
    this.stats(symbol).settlement = price === 1 ? (instrument?.scales.priceScale ?? 1) : 0;
    const result = this.apply(this.engine.settle(symbol, price === 1 ? (instrument?.scales.priceScale ?? 1) : 0));
    if (instrument !== undefined) {
      for (const position of this.ledger.settle(symbol, new Decimal(price), instrument.scales, this.clock.now())) {
        this.events$.next({ kind: 'position', position });
      }
    }
    return result;
  }

  /** Expires GOOD_TILL_TIME orders whose time has passed. */
  expire(): EngineResult {
    return this.apply(this.engine.expire(this.clock.now()));
  }

  /** The order id an earlier insert with this (account, clord_id) got, if any. */
  orderIdFor(account: string, clordId: string): string | undefined {
    return this.clordIndex.get(`${account}\u0000${clordId}`);
  }

  order(orderId: string): OrderRecord | undefined {
    return this.orders.get(orderId);
  }

  allOrders(): IterableIterator<OrderRecord> {
    return this.orders.values();
  }

  openOrders(filter: { account?: string; symbol?: string } = {}): OrderSnapshot[] {
    return this.engine.openOrders(filter);
  }

  stats(symbol: string): SymbolStats {
    let stats = this.statsBySymbol.get(symbol);
    if (stats === undefined) {
      stats = { open: undefined, high: undefined, low: undefined, last: undefined, sharesTraded: 0, notionalTraded: 0, settlement: undefined };
      this.statsBySymbol.set(symbol, stats);
    }
    return stats;
  }

  trades(): readonly Trade[] {
    return this.tape;
  }

  private apply(result: EngineResult): EngineResult {
    const touched = new Set<string>();
    const asOf = result.executions.map((execution) => {
      touched.add(execution.order.symbol);
      const record = this.record(execution);
      return { fills: new Map(record.fills), lastTradeId: record.lastTradeId };
    });
    for (const trade of result.trades) this.book(trade);
    result.executions.forEach((execution, i) => this.events$.next({ kind: 'execution', execution, ...(asOf[i] as { fills: Map<number, number>; lastTradeId: string | undefined }) }));
    for (const reject of result.cancelRejects) this.events$.next({ kind: 'cancelReject', reject: this.withOwner(reject) });
    for (const trade of result.trades) this.events$.next({ kind: 'trade', trade });
    for (const event of result.instrumentEvents) {
      touched.add(event.symbol);
      this.events$.next({ kind: 'instrument', event });
    }
    for (const symbol of touched) this.events$.next({ kind: 'book', symbol });
    return result;
  }

  /** A reject for an order that is no longer working may lack its account: take it from the order history. */
  private withOwner(reject: CancelReject): CancelReject {
    if (reject.account !== undefined || reject.orderId === undefined) return reject;
    const record = this.orders.get(reject.orderId);
    if (record === undefined) return reject;
    return { ...reject, account: record.latest.order.account, symbol: reject.symbol ?? record.latest.order.symbol };
  }

  private record(execution: Execution): OrderRecord {
    const id = execution.order.orderId;
    let record = this.orders.get(id);
    if (record === undefined) {
      record = { latest: execution, fills: new Map(), lastTradeId: undefined, lastTransactTime: undefined };
      this.orders.set(id, record);
      const clordId = execution.order.clordId;
      if (clordId !== undefined && clordId !== '') this.clordIndex.set(`${execution.order.account}\u0000${clordId}`, id);
    }
    record.latest = execution;
    record.lastTransactTime = execution.transactTime;
    if (execution.lastQty > 0) {
      record.fills.set(execution.lastPx, (record.fills.get(execution.lastPx) ?? 0) + execution.lastQty);
      record.lastTradeId = execution.tradeId;
    }
    return record;
  }

  private book(trade: Trade): void {
    this.tape.push(trade);
    if (this.tape.length > this.maxTrades) this.tape.splice(0, this.tape.length - this.maxTrades);
    const stats = this.stats(trade.symbol);
    stats.open ??= trade.price;
    stats.high = Math.max(stats.high ?? trade.price, trade.price);
    stats.low = Math.min(stats.low ?? trade.price, trade.price);
    stats.last = trade.price;
    stats.sharesTraded += trade.qty;
    stats.notionalTraded += trade.price * trade.qty;
    const instrument = this.instrumentMap.get(trade.symbol);
    if (instrument === undefined) return;
    const buyer = this.ledger.fill(trade.buyer.order.account, trade.symbol, trade.qty, trade.price, instrument.scales, trade.time);
    const seller = this.ledger.fill(trade.seller.order.account, trade.symbol, -trade.qty, trade.price, instrument.scales, trade.time);
    this.events$.next({ kind: 'position', position: buyer });
    this.events$.next({ kind: 'position', position: seller });
  }
}
