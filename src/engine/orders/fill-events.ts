/**
 * Turns the fills derived from one piece of evidence into `Fill` events. Ids: the execution id when the
 * evidence yields one fill, `<executionId>#<n>` (n from 1) when it is split by price; fills derived from a
 * snapshot or a lookup are named `<source>:<orderId or clordId>:<cumQty>#<n>`, which is unique because
 * cum_qty only grows. The exchange's commission and aggressor flag are copied only to a fill that is
 * exactly the execution (priced from last_px with qty = last_shares); otherwise they are unknown.
 */
import type { Execution } from '../../domain/index.ts';
import type { EpochMs } from '../../domain/time.ts';
import type { DerivedFill } from './fill-derivation.ts';
import type { OrderRecord } from './record.ts';
import type { Fill } from './types.ts';

export interface FillContext {
  readonly source: 'execution' | 'snapshot' | 'lookup';
  readonly execution: Execution | undefined;
}

export function buildFills(record: OrderRecord, derived: readonly DerivedFill[], context: FillContext, now: EpochMs): Fill[] {
  if (derived.length === 0) return [];
  const exec = context.execution;
  const base =
    exec !== undefined && exec.id !== '' ? exec.id : `${context.source}:${record.orderId ?? record.clordId}:${record.filledQty.toFixed()}`;
  const single = derived.length === 1 && exec !== undefined && exec.id !== '';
  return derived.map((fill, i): Fill => {
    const exact = exec !== undefined && fill.source === 'lastPx' && fill.qty.eq(exec.lastShares);
    return Object.freeze({
      fillId: single ? base : `${base}#${i + 1}`,
      clordId: record.clordId,
      orderId: record.orderId,
      account: record.account,
      symbol: record.symbol,
      side: record.side,
      qty: fill.qty,
      price: fill.price,
      fee: exact ? exec.commissionNotionalCollected : undefined,
      time: exec?.transactTime ?? now,
      executionId: exec?.id,
      aggressor: exact ? exec.aggressor : undefined,
      priceSource: fill.source,
      intentId: record.intentId,
    });
  });
}
