/**
 * Fills are derived from increases of an order's cumulative quantity, never counted per execution, so a
 * duplicate or stale execution adds nothing and a missed PARTIAL_FILL is recovered by the next execution
 * (or snapshot) that shows a higher cum_qty. This module computes the fills of one increase, purely.
 *
 * Price of an increase `delta = cum_qty(new) - filled(before)`, first rule that applies:
 * 1. lastPx (exact): the execution's last_shares equals delta, so the increase is exactly this execution.
 * 2. levels (exact): the order carries its filled quantity per price (`priceToQuantityFilled`) and the
 *    tracker knows the previous levels: the per-price increases are the fills (one per price, ascending),
 *    provided they are non-negative and sum to delta.
 * 3. avgPx (estimate): intermediate executions were missed and no levels are available. If the execution
 *    itself carries last_shares < delta, that part is a fill at last_px (exact); the rest `r` is priced
 *    `(cum_qty * avg_px - notional(before) - last_shares * last_px) / r`, i.e. from the change in
 *    cum_qty * avg_px. The exchange rounds avg_px to the price scale, so this price can be off by up to
 *    `cum_qty * (half a price step) / r`; it is clamped to the order's limit (a buy never fills above it, a
 *    sell never below) and to >= 0, and flagged `avgPx` so callers can tell. Reconciling positions with the
 *    exchange (Portfolio.reconcile) corrects what such an estimate gets wrong.
 */
import { type Decimal, ZERO } from '../../domain/decimal.ts';
import type { PriceQty } from '../../domain/types/common.ts';
import type { FillPriceSource } from './types.ts';

/** What the tracker had applied before this evidence. */
export interface FillBasis {
  readonly filledQty: Decimal;
  /** Sum of qty x price over the fills applied so far (plus the adopted history). */
  readonly notional: Decimal;
  /** Filled quantity per price at `filledQty`; undefined when not known. */
  readonly levels: readonly PriceQty[] | undefined;
}

/** The exchange's view of the order after the evidence. */
export interface FillEvidence {
  readonly cumQty: Decimal;
  readonly avgPx: Decimal;
  readonly levels: readonly PriceQty[];
  /** last_px / last_shares of the execution; undefined for a snapshot or a lookup. */
  readonly last: { readonly px: Decimal; readonly shares: Decimal } | undefined;
  /** Bounds for an estimated price: the order's limit price and side. */
  readonly limit: Decimal | undefined;
  readonly isBuy: boolean;
}

export interface DerivedFill {
  readonly qty: Decimal;
  readonly price: Decimal;
  readonly source: FillPriceSource;
}

/** Sums quantities per price (the key is the canonical decimal string). */
function levelMap(levels: readonly PriceQty[]): Map<string, { px: Decimal; qty: Decimal }> {
  const map = new Map<string, { px: Decimal; qty: Decimal }>();
  for (const level of levels) {
    const key = level.px.toFixed();
    const seen = map.get(key);
    map.set(key, { px: level.px, qty: (seen?.qty ?? ZERO).plus(level.qty) });
  }
  return map;
}

/** Per-price increases from `before` to `after`, or undefined when they are inconsistent with `delta`. */
function levelFills(before: readonly PriceQty[], after: readonly PriceQty[], delta: Decimal): DerivedFill[] | undefined {
  const old = levelMap(before);
  const fills: DerivedFill[] = [];
  let total = ZERO;
  for (const [key, level] of levelMap(after)) {
    const diff = level.qty.minus(old.get(key)?.qty ?? ZERO);
    if (diff.isNegative()) return undefined;
    if (diff.isZero()) continue;
    fills.push({ qty: diff, price: level.px, source: 'levels' });
    total = total.plus(diff);
  }
  if (!total.eq(delta)) return undefined;
  return fills.sort((a, b) => a.price.comparedTo(b.price));
}

/** Sum of the quantities of `levels`. */
export function levelsTotal(levels: readonly PriceQty[]): Decimal {
  let total = ZERO;
  for (const level of levels) total = total.plus(level.qty);
  return total;
}

function clampEstimate(price: Decimal, limit: Decimal | undefined, isBuy: boolean): Decimal {
  let p = price.isNegative() ? ZERO : price;
  if (limit !== undefined && limit.gt(0)) {
    if (isBuy && p.gt(limit)) p = limit;
    if (!isBuy && p.lt(limit)) p = limit;
  }
  return p;
}

/** The fills of the increase from `basis.filledQty` to `evidence.cumQty`; empty when there is none. */
export function deriveFills(basis: FillBasis, evidence: FillEvidence): DerivedFill[] {
  const delta = evidence.cumQty.minus(basis.filledQty);
  if (delta.lte(0)) return [];
  const last = evidence.last;
  if (last !== undefined && last.shares.eq(delta)) return [{ qty: delta, price: last.px, source: 'lastPx' }];
  if (basis.levels !== undefined && evidence.levels.length > 0) {
    const fills = levelFills(basis.levels, evidence.levels, delta);
    if (fills !== undefined) return fills;
  }
  const fills: DerivedFill[] = [];
  let rest = delta;
  let notional = basis.notional;
  if (last !== undefined && last.shares.gt(0) && last.shares.lt(delta)) {
    fills.push({ qty: last.shares, price: last.px, source: 'lastPx' });
    rest = delta.minus(last.shares);
    notional = notional.plus(last.shares.times(last.px));
  }
  const raw = evidence.cumQty.times(evidence.avgPx).minus(notional).div(rest);
  fills.push({ qty: rest, price: clampEstimate(raw, evidence.limit, evidence.isBuy), source: 'avgPx' });
  return fills;
}

/**
 * The levels to remember once the filled quantity is `cumQty`: the evidence's when they add up to it,
 * else undefined (unknown, so the next increase cannot use rule 2).
 */
export function knownLevels(levels: readonly PriceQty[], cumQty: Decimal): readonly PriceQty[] | undefined {
  if (cumQty.isZero()) return [];
  return levels.length > 0 && levelsTotal(levels).eq(cumQty) ? levels : undefined;
}
