/**
 * Converts the matching engine's raw-integer views (order snapshots, executions, trades) into domain
 * objects (Decimal), so the simulator's servers encode wire JSON with the same mappers the clients decode
 * with. The wire-only fields of an order travel through the engine in its opaque `tag` (`OrderExtras`).
 */
import { Decimal, ZERO } from '../../domain/decimal.ts';
import { RenewingMap } from '../../util/renewing-collections.ts';
import { decimalFromRawInt, type InstrumentScales } from '../../domain/scales.ts';
import { protoDateOf } from '../../domain/time.ts';
import type { Order } from '../../domain/types/order.ts';
import type { Execution as DomainExecution } from '../../domain/types/execution.ts';
import type { ManualOrderIndicator, OrderCapacity, SelfMatchPreventionInstruction } from '../../domain/enums.ts';
import type { Execution } from '../matching/index.ts';
import type { OrderState, OrderType, SelfMatchPrevention, Side, TimeInForce } from '../matching/types.ts';

/** The order terms the conversion reads (the engine's OrderTerms, or a preview built from a request). */
export interface TermsLike {
  readonly orderId: string;
  readonly symbol: string;
  readonly side: Side;
  readonly type: OrderType;
  readonly timeInForce: TimeInForce;
  readonly price?: number | undefined;
  readonly stopPrice?: number | undefined;
  readonly orderQty: number;
  readonly minQty?: number | undefined;
  readonly allOrNone?: boolean | undefined;
  readonly participateDontInitiate?: boolean | undefined;
  readonly goodTillTime?: number | undefined;
  readonly account: string;
  readonly clordId?: string | undefined;
  readonly participant?: string | undefined;
  readonly selfMatchPreventionInstruction?: SelfMatchPrevention | undefined;
  readonly commissionBasisPoints?: number | undefined;
  readonly makerCommissionBasisPoints?: number | undefined;
  readonly crossId?: string | undefined;
  readonly insertTime: number;
  readonly tag?: unknown;
}

export interface SnapshotLike {
  readonly order: TermsLike;
  readonly state: OrderState;
  readonly cumQty: number;
  readonly leavesQty: number;
  readonly avgPx: string;
}

/** Order fields the engine does not use, carried in its `tag`. */
export interface OrderExtras {
  submittingParticipant: string;
  clientAccountId: string;
  clientParticipantId: string;
  symbolSubType: string;
  manualOrderIndicator: ManualOrderIndicator;
  orderCapacity: OrderCapacity;
  createTime: number;
}

export function extrasOf(snapshot: SnapshotLike): OrderExtras | undefined {
  const tag = snapshot.order.tag;
  return tag !== null && typeof tag === 'object' ? (tag as OrderExtras) : undefined;
}

/**
 * raw / scale as a Decimal, remembered per scale (up to 4096 values each, then started afresh): a
 * conversion builds ~8 of them, each a Decimal division of ~1 us, from few distinct prices and quantities
 * (Decimals are immutable, so objects can share them). Also keyed by avgPx's decimal string.
 */
const scaledCache = new Map<number, RenewingMap<number | string, Decimal>>();
function scaled(raw: number | string, scale: number): Decimal {
  if (Object.is(raw, -0)) return new Decimal(raw).div(scale);
  let byRaw = scaledCache.get(scale);
  if (byRaw === undefined) scaledCache.set(scale, (byRaw = new RenewingMap()));
  let d = byRaw.get(raw);
  if (d === undefined) {
    d = new Decimal(raw).div(scale);
    if (byRaw.size >= 4096) byRaw.clear();
    byRaw.set(raw, d);
  }
  return d;
}

/**
 * A raw price or quantity as a Decimal: a non-negative integer (-0 aside) from decimalFromRawInt, whose cache is
 * an array for small values (a price's or a size's raw integer), else as `scaled` gives it. The same value either
 * way (raw × 10^-digits, exact): scales are powers of ten.
 */
function fromRaw(raw: number, scale: number, digits: number): Decimal {
  return Number.isSafeInteger(raw) && raw >= 0 && !Object.is(raw, -0) ? decimalFromRawInt(raw, digits) : scaled(raw, scale);
}
const price = (raw: number | undefined, scales: InstrumentScales): Decimal =>
  raw === undefined ? ZERO : fromRaw(raw, scales.priceScale, scales.priceDigits);
const qty = (raw: number | undefined, scales: InstrumentScales): Decimal =>
  raw === undefined ? ZERO : fromRaw(raw, scales.qtyScale, scales.qtyDigits);
/** A raw price / quantity as the domain Decimal (the remembered conversions above). */
export { price as domainPrice, qty as domainQty };

export interface OrderContextInfo {
  lastTradeId?: string;
  lastTransactTime?: number;
  fills?: ReadonlyMap<number, number>;
}

/** A commission rate (basis points) as a Decimal, remembered (few distinct rates; -0 never cached). */
const rateCache = new RenewingMap<number, Decimal>();
function rate(bps: number | undefined): Decimal {
  const n = bps ?? 0;
  if (Object.is(n, -0)) return new Decimal(n);
  let d = rateCache.get(n);
  if (d === undefined) {
    d = new Decimal(n);
    if (rateCache.size >= 4096) rateCache.clear();
    rateCache.set(n, d);
  }
  return d;
}

export function toDomainOrder(snapshot: SnapshotLike, scales: InstrumentScales, info: OrderContextInfo = {}): Order {
  return domainOrder(snapshot, scales, info.fills, info.lastTradeId, info.lastTransactTime);
}

function domainOrder(
  snapshot: SnapshotLike,
  scales: InstrumentScales,
  fillMap: ReadonlyMap<number, number> | undefined,
  lastTradeId: string | undefined,
  lastTransactTime: number | undefined,
): Order {
  const terms = snapshot.order;
  const extras = extrasOf(snapshot);
  const fills =
    fillMap === undefined
      ? []
      : [...fillMap].sort((a, b) => a[0] - b[0]).map(([px, q]) => ({ px: price(px, scales), qty: qty(q, scales) }));
  return {
    id: terms.orderId,
    clordId: terms.clordId ?? '',
    crossId: terms.crossId ?? '',
    hostCrossId: '',
    parentOrderId: '',
    lastTradeId: lastTradeId ?? '',
    account: terms.account,
    clientAccountId: extras?.clientAccountId ?? '',
    clientParticipantId: extras?.clientParticipantId ?? '',
    participant: terms.participant ?? '',
    submittingParticipant: extras?.submittingParticipant ?? terms.participant ?? '',
    symbol: terms.symbol,
    symbolSubType: extras?.symbolSubType ?? '',
    collateralMemo: '',
    side: terms.side,
    type: terms.type,
    timeInForce: terms.timeInForce,
    state: snapshot.state,
    triggerMethod: terms.stopPrice === undefined ? 'CONDITION_TRIGGER_METHOD_UNDEFINED' : 'CONDITION_TRIGGER_METHOD_LAST_PRICE',
    manualOrderIndicator: extras?.manualOrderIndicator ?? 'MANUAL_ORDER_INDICATOR_UNDEFINED',
    orderCapacity: extras?.orderCapacity ?? 'ORDER_CAPACITY_UNDEFINED',
    selfMatchPreventionInstruction: (terms.selfMatchPreventionInstruction ??
      'SELF_MATCH_PREVENTION_INSTRUCTION_UNDEFINED') as SelfMatchPreventionInstruction,
    orderQty: qty(terms.orderQty, scales),
    cashOrderQty: ZERO,
    minQty: qty(terms.minQty, scales),
    cumQty: qty(snapshot.cumQty, scales),
    leavesQty: qty(snapshot.leavesQty, scales),
    price: price(terms.price, scales),
    stopPrice: price(terms.stopPrice, scales),
    avgPx: scaled(snapshot.avgPx, scales.priceScale),
    priorityWeight: '',
    commissionsBasisPoints: rate(terms.commissionBasisPoints),
    makerCommissionsBasisPoints: rate(terms.makerCommissionBasisPoints),
    commissionNotionalTotalCollected: ZERO,
    priceToQuantityFilled: fills,
    allOrNone: terms.allOrNone ?? false,
    bestLimit: false,
    blockTradeIndicator: false,
    ignorePriceValidityChecks: false,
    immediatelyExecutableLimit: false,
    participateDontInitiate: terms.participateDontInitiate ?? false,
    strictLimit: false,
    createTime: extras?.createTime ?? terms.insertTime,
    insertTime: terms.insertTime,
    goodTillTime: terms.goodTillTime,
    lastTransactTime,
    riskCheckTime: undefined,
    transactionBookedTime: undefined,
    context: undefined,
  };
}

/** `commission`: the notional the exchange collected on this execution (0 unless the caller knows it). */
export function toDomainExecution(
  execution: Execution,
  scales: InstrumentScales,
  info: OrderContextInfo = {},
  commission: Decimal = ZERO,
): DomainExecution {
  return {
    id: execution.id,
    tradeId: execution.tradeId ?? '',
    traceId: '',
    text: execution.text,
    order: domainOrder(execution, scales, info.fills, info.lastTradeId, execution.transactTime),
    lastPx: price(execution.lastPx, scales),
    lastShares: qty(execution.lastQty, scales),
    commissionNotionalCollected: commission,
    commissionSpreadPx: ZERO,
    aggressor: execution.aggressor,
    type: execution.type,
    orderRejectReason: execution.orderRejectReason,
    unsolicitedCancelReason: 'UNSOLICITED_CXL_REASON_UNDEFINED',
    transactTime: execution.transactTime,
    transactTradeDate: protoDateOf(execution.transactTime),
    legPrices: [],
  };
}
