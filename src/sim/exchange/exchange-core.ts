/**
 * The simulated exchange's single source of truth, shared by every door into it (gateway REST, family A
 * REST, gRPC): the matching engine, instruments, the ledger, the order history and the trade tape. Every
 * command goes through `apply`, which records the engine's result and publishes it on `events$`, so an
 * order sent through any door shows up in every stream, search and position.
 *
 * The order history keeps every working order and the most recent `maxOrderHistory` finished ones (the
 * oldest finished order is forgotten first, with its clord_id index entry), so a long run does not grow
 * without bound; a retried insert is recognised as long as its order is still in the history. Crosses are
 * indexed by (account, cross_id) of each leg, so a repeated cross is answered with its earlier legs.
 */
import { Subject } from 'rxjs';
import { Decimal } from '../../domain/decimal.ts';
import {
  MatchingEngine,
  type EngineResult,
  type Execution,
  type OrderSnapshot,
  type Trade,
  type CancelReject,
  type InstrumentEvent,
} from '../matching/index.ts';
import type {
  CancelRequest,
  Clock,
  CrossRequest,
  InstrumentState,
  MassCancelRequest,
  OrderRequest,
  ReplaceRequest,
} from '../matching/types.ts';
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
  /** The clord_id of the insert (the one the clord_id index names), when the order had one. */
  firstClordId?: string | undefined;
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
  /** Most recent trades kept for search (default 200 000; older ones are dropped). */
  maxTrades?: number;
  /** Finished orders kept in the history (default 50 000); working orders are always kept. */
  maxOrderHistory?: number;
}

/** The core's mutable stores, for the simulator's state file only (src/sim/state). */
export interface CoreStores {
  readonly orders: Map<string, OrderRecord>;
  readonly clordIndex: Map<string, string>;
  readonly tape: Trade[];
  readonly stats: Map<string, SymbolStats>;
}

const FINAL_STATES: ReadonlySet<string> = new Set([
  'ORDER_STATE_FILLED',
  'ORDER_STATE_CANCELED',
  'ORDER_STATE_REJECTED',
  'ORDER_STATE_EXPIRED',
]);

/** True when an order in this state will not change again. */
export function isFinalOrderState(state: string): boolean {
  return FINAL_STATES.has(state);
}

/** The distinct order ids of a cross's executions, in the order of the legs. */
function crossLegIds(result: EngineResult): string[] {
  const ids: string[] = [];
  for (const execution of result.executions) {
    if (execution.order.crossId !== undefined && !ids.includes(execution.order.orderId)) ids.push(execution.order.orderId);
  }
  return ids;
}

/** The clord_id index key of an order. */
export function clordKey(account: string, clordId: string): string {
  return `${account}\u0000${clordId}`;
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
  /** (leg account, cross_id) -> the leg order ids of the cross that used it (pruned with the legs). */
  private readonly crossIndex = new Map<string, readonly string[]>();
  private readonly tape: Trade[] = [];
  /** Trades trimmed off the tape's front so far: `tapeDropped + i` is tape[i]'s position for good (page tokens). */
  private tapeDropped = 0;
  private readonly statsBySymbol = new Map<string, SymbolStats>();
  private readonly maxTrades: number;
  private readonly maxOrderHistory: number;
  /** Ids of finished orders, oldest first (from `finishedHead`): the pruning queue of the history. */
  private finished: string[] = [];
  private finishedHead = 0;

  constructor(private readonly options: ExchangeCoreOptions) {
    this.engine = new MatchingEngine({ clock: options.clock });
    this.ledger = new Ledger(options.startingBalance);
    this.currency = options.currency;
    this.maxTrades = options.maxTrades ?? 200_000;
    this.maxOrderHistory = options.maxOrderHistory ?? 50_000;
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
    const result = this.apply(this.engine.cross(request));
    const legs = crossLegIds(result);
    for (const execution of result.executions) {
      const { account, crossId } = execution.order;
      if (crossId !== undefined && this.orders.has(execution.order.orderId)) this.crossIndex.set(clordKey(account, crossId), legs);
    }
    return result;
  }

  /** The leg order ids of an earlier cross of `account` with this cross_id, if it is still remembered. */
  crossOrderIds(account: string, crossId: string): readonly string[] | undefined {
    return this.crossIndex.get(clordKey(account, crossId));
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
    return this.clordIndex.get(clordKey(account, clordId));
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
      stats = {
        open: undefined,
        high: undefined,
        low: undefined,
        last: undefined,
        sharesTraded: 0,
        notionalTraded: 0,
        settlement: undefined,
      };
      this.statsBySymbol.set(symbol, stats);
    }
    return stats;
  }

  /** The most recent `maxTrades` trades, oldest first. */
  trades(): readonly Trade[] {
    return this.tape.length > this.maxTrades ? this.tape.slice(this.tape.length - this.maxTrades) : this.tape;
  }

  /**
   * The same trades with their positions on the tape since the start (each trade keeps its position however
   * many older ones are trimmed off: what search page tokens count in).
   */
  *tradePositions(): IterableIterator<readonly [number, Trade]> {
    const from = Math.max(0, this.tape.length - this.maxTrades);
    for (let i = from; i < this.tape.length; i++) yield [this.tapeDropped + i, this.tape[i] as Trade];
  }

  /** The mutable stores, for saving and restoring the state file (src/sim/state); nothing else uses them. */
  stores(): CoreStores {
    return { orders: this.orders, clordIndex: this.clordIndex, tape: this.tape, stats: this.statsBySymbol };
  }

  /** After a restore: the restored finished orders join the pruning queue, oldest first. */
  rebuildHistoryQueue(): void {
    this.finished = [...this.orders.values()].filter((r) => isFinalOrderState(r.latest.state)).map((r) => r.latest.order.orderId);
    this.finishedHead = 0;
    this.pruneHistory();
    this.rebuildCrossIndex();
  }

  /** After a restore: the cross index from the restored legs (the legs of one cross are consecutive orders). */
  private rebuildCrossIndex(): void {
    this.crossIndex.clear();
    const legsOf = new Map<string, OrderRecord[]>();
    for (const record of this.orders.values()) {
      const crossId = record.latest.order.crossId;
      if (crossId === undefined) continue;
      const group = legsOf.get(crossId) ?? [];
      group.push(record);
      legsOf.set(crossId, group);
    }
    for (const group of legsOf.values()) {
      group.sort((a, b) => a.latest.order.orderSeq - b.latest.order.orderSeq);
      for (let i = 0; i + 1 < group.length; i++) {
        const a = group[i] as OrderRecord;
        const b = group[i + 1] as OrderRecord;
        if (b.latest.order.orderSeq !== a.latest.order.orderSeq + 1) continue;
        const legs = [a.latest.order.orderId, b.latest.order.orderId];
        this.crossIndex.set(clordKey(a.latest.order.account, a.latest.order.crossId as string), legs);
        this.crossIndex.set(clordKey(b.latest.order.account, b.latest.order.crossId as string), legs);
        i++;
      }
    }
  }

  private apply(result: EngineResult): EngineResult {
    const touched = new Set<string>();
    const asOf = result.executions.map((execution) => {
      touched.add(execution.order.symbol);
      const record = this.record(execution);
      return { fills: new Map(record.fills), lastTradeId: record.lastTradeId };
    });
    for (const trade of result.trades) this.book(trade);
    result.executions.forEach((execution, i) =>
      this.events$.next({ kind: 'execution', execution, ...(asOf[i] as { fills: Map<number, number>; lastTradeId: string | undefined }) }),
    );
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
      const clordId = execution.order.clordId;
      record = { latest: execution, firstClordId: clordId, fills: new Map(), lastTradeId: undefined, lastTransactTime: undefined };
      this.orders.set(id, record);
      if (clordId !== undefined && clordId !== '') this.clordIndex.set(clordKey(execution.order.account, clordId), id);
    }
    record.latest = execution;
    record.lastTransactTime = execution.transactTime;
    if (execution.lastQty > 0) {
      record.fills.set(execution.lastPx, (record.fills.get(execution.lastPx) ?? 0) + execution.lastQty);
      record.lastTradeId = execution.tradeId;
    }
    if (isFinalOrderState(execution.state)) {
      this.finished.push(id);
      this.pruneHistory();
    }
    return record;
  }

  /** Forgets the oldest finished orders beyond `maxOrderHistory` (and the clord_id entries naming them). */
  private pruneHistory(): void {
    while (this.finished.length - this.finishedHead > this.maxOrderHistory) {
      const id = this.finished[this.finishedHead] as string;
      this.finishedHead += 1;
      const record = this.orders.get(id);
      if (record === undefined) continue;
      this.orders.delete(id);
      for (const clordId of [record.firstClordId, record.latest.order.clordId]) {
        if (clordId === undefined || clordId === '') continue;
        const key = clordKey(record.latest.order.account, clordId);
        if (this.clordIndex.get(key) === id) this.clordIndex.delete(key);
      }
      const crossId = record.latest.order.crossId;
      if (crossId !== undefined) {
        const key = clordKey(record.latest.order.account, crossId);
        if (this.crossIndex.get(key)?.includes(id) === true) this.crossIndex.delete(key);
      }
    }
    if (this.finishedHead > 65_536 && this.finishedHead * 2 > this.finished.length) {
      this.finished = this.finished.slice(this.finishedHead);
      this.finishedHead = 0;
    }
  }

  private book(trade: Trade): void {
    this.tape.push(trade);
    // trimmed in batches (a splice moves the whole tape): between trims it holds up to 1/16 more than the cap
    if (this.tape.length > this.maxTrades + Math.max(64, this.maxTrades >> 4)) {
      const dropped = this.tape.length - this.maxTrades;
      this.tape.splice(0, dropped);
      this.tapeDropped += dropped;
    }
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
