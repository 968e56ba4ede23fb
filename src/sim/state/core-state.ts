/**
 * The exchange's state, captured from an ExchangeCore as one JSON document (schema.ts) and restored into a
 * fresh one. What is kept, exactly:
 * - the matching engine's working orders with their ids, clord_ids, fill state and time priority, the id
 *   counters and each book's state and last trade price (src/sim/matching/snapshot.ts): books come back
 *   with the same queues, and new ids continue after the old ones;
 * - the ledger: every balance and position (net, cost, realized PnL);
 * - the order history for lookups: every working order's record, plus the most recent
 *   `maxFinishedOrders` finished orders of every firm but the synthetic activity's (whose finished quotes
 *   nobody looks up), and the clord_id index entries of the orders kept, so an insert retried across a
 *   restart still returns the earlier order instead of creating a second one;
 * - the most recent `maxTrades` trades of the tape and the session statistics per symbol.
 * Ids restart RESTORE_ID_GAP after the saved counters: after a SIGKILL the ids issued since the last write
 * are lost with their orders, and issuing them again would make a client take a new execution for a
 * duplicate (its dedupe by execution id) or a new order for an old one (same order id).
 * Not kept: users' tokens (they are signed with `sim.signingSecret`; a random secret dies with the
 * process and clients log in again), KYC progress, gRPC replay journals, the activity's fair values.
 */
import { Decimal } from '../../domain/decimal.ts';
import { ACTIVITY_FIRM } from '../activity/market-activity.ts';
import { clordKey, isFinalOrderState, type ExchangeCore, type OrderRecord } from '../exchange/exchange-core.ts';
import { Execution, OrderSnapshot, Trade, termsFromJson, termsToJson } from '../matching/index.ts';
import { IdGenerator } from '../matching/ids.ts';
import { STATE_FILE_VERSION, type ExecutionJson, type StateFile } from './schema.ts';

export interface CaptureLimits {
  /** Finished orders (outside the activity firm) kept for lookups. Default 10 000. */
  maxFinishedOrders?: number;
  /** Most recent trades kept. Default 5 000. */
  maxTrades?: number;
}

const ACTIVITY_PREFIX = `firms/${ACTIVITY_FIRM}/`;

/** Ids skipped on restore (order, execution, trade): more than one interval can issue between two writes. */
export const RESTORE_ID_GAP = 1_000_000;

function executionToJson(e: Execution): ExecutionJson {
  return {
    seq: e.seq,
    type: e.type,
    terms: termsToJson(e.order),
    state: e.state,
    cumQty: e.cumQty,
    leavesQty: e.leavesQty,
    cumNotional: e.cumNotional,
    lastPx: e.lastPx,
    lastQty: e.lastQty,
    aggressor: e.aggressor,
    tradeSeq: e.tradeSeq,
    transactTime: e.transactTime,
    orderRejectReason: e.orderRejectReason,
    text: e.text,
  };
}

function executionFromJson(j: ExecutionJson, ids: IdGenerator): Execution {
  const terms = termsFromJson(j.terms, ids.orderPrefix);
  return new Execution(
    ids,
    j.seq,
    j.type,
    terms,
    j.state,
    j.cumQty,
    j.leavesQty,
    j.cumNotional,
    j.lastPx,
    j.lastQty,
    j.aggressor,
    j.tradeSeq,
    j.transactTime,
    j.orderRejectReason,
    j.text,
  );
}

/** The records worth saving, oldest first: every working order, and the most recent finished ones. */
function recordsToKeep(records: Iterable<OrderRecord>, maxFinished: number): OrderRecord[] {
  const all = [...records];
  const finished = all.filter((r) => isFinalOrderState(r.latest.state) && !r.latest.order.account.startsWith(ACTIVITY_PREFIX));
  const keepFinished = new Set(finished.slice(Math.max(0, finished.length - maxFinished)));
  return all.filter((r) => !isFinalOrderState(r.latest.state) || keepFinished.has(r));
}

/** The core's state now, as the state file's JSON document. */
export function captureCore(core: ExchangeCore, savedAt: number, limits: CaptureLimits = {}): StateFile {
  const stores = core.stores();
  const kept = recordsToKeep(stores.orders.values(), limits.maxFinishedOrders ?? 10_000);
  const keptIds = new Set(kept.map((r) => r.latest.order.orderId));
  const clordIndex: [string, string, string][] = [];
  for (const [key, orderId] of stores.clordIndex) {
    if (!keptIds.has(orderId)) continue;
    const cut = key.indexOf('\u0000');
    clordIndex.push([key.slice(0, cut), key.slice(cut + 1), orderId]);
  }
  const maxTrades = limits.maxTrades ?? 5_000;
  return {
    version: STATE_FILE_VERSION,
    savedAt,
    engine: core.engine.exportState(),
    ledger: {
      balances: core.ledger.allBalances().map((b) => ({ account: b.account, cash: b.cash.toString(), updateTime: b.updateTime })),
      positions: core.ledger.allPositions().map((p) => ({
        account: p.account,
        symbol: p.symbol,
        net: p.net,
        cost: p.cost.toString(),
        realizedPnl: p.realizedPnl.toString(),
        updateTime: p.updateTime,
      })),
    },
    orders: kept.map((r) => ({
      latest: {
        terms: termsToJson(r.latest.order),
        state: r.latest.state,
        cumQty: r.latest.cumQty,
        leavesQty: r.latest.leavesQty,
        cumNotional: r.latest.cumNotional,
      },
      firstClordId: r.firstClordId,
      fills: [...r.fills.entries()],
      lastTradeId: r.lastTradeId,
      lastTransactTime: r.lastTransactTime,
    })),
    clordIndex,
    trades: stores.tape.slice(Math.max(0, stores.tape.length - maxTrades)).map((t) => ({
      seq: t.seq,
      type: t.type,
      symbol: t.symbol,
      price: t.price,
      qty: t.qty,
      time: t.time,
      aggressor: executionToJson(t.aggressor),
      passive: executionToJson(t.passive),
    })),
    stats: [...stores.stats.entries()].map(([symbol, s]) => ({ symbol, ...s })),
  };
}

/** Puts a saved state into a fresh core (no orders, trades or positions yet); emits no events. */
export function restoreCore(core: ExchangeCore, state: StateFile): void {
  const c = state.engine.counters;
  core.engine.importState({
    ...state.engine,
    counters: { order: c.order + RESTORE_ID_GAP, exec: c.exec + RESTORE_ID_GAP, trade: c.trade + RESTORE_ID_GAP, priority: c.priority },
  });
  for (const b of state.ledger.balances) {
    const balance = core.ledger.balance(b.account);
    balance.cash = new Decimal(b.cash);
    balance.updateTime = b.updateTime;
  }
  for (const p of state.ledger.positions) {
    const position = core.ledger.position(p.account, p.symbol);
    position.net = p.net;
    position.cost = new Decimal(p.cost);
    position.realizedPnl = new Decimal(p.realizedPnl);
    position.updateTime = p.updateTime;
  }
  const ids = new IdGenerator('');
  const stores = core.stores();
  for (const r of state.orders) {
    const latest = new OrderSnapshot(
      termsFromJson(r.latest.terms, ids.orderPrefix),
      r.latest.state,
      r.latest.cumQty,
      r.latest.leavesQty,
      r.latest.cumNotional,
    );
    stores.orders.set(latest.orderId, {
      latest,
      firstClordId: r.firstClordId,
      fills: new Map(r.fills),
      lastTradeId: r.lastTradeId,
      lastTransactTime: r.lastTransactTime,
    });
  }
  for (const [account, clordId, orderId] of state.clordIndex) stores.clordIndex.set(clordKey(account, clordId), orderId);
  for (const t of state.trades) {
    stores.tape.push(
      new Trade(
        ids,
        t.seq,
        t.type,
        t.symbol,
        t.price,
        t.qty,
        executionFromJson(t.aggressor, ids),
        executionFromJson(t.passive, ids),
        t.time,
      ),
    );
  }
  for (const s of state.stats) {
    stores.stats.set(s.symbol, {
      open: s.open,
      high: s.high,
      low: s.low,
      last: s.last,
      sharesTraded: s.sharesTraded,
      notionalTraded: s.notionalTraded,
      settlement: s.settlement,
    });
  }
  core.rebuildHistoryQueue();
}
