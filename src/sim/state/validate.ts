/**
 * Whole-document checks of a sim state file, after its shape passed the schema (schema.ts) and before anything
 * is restored: what the shape alone cannot say. A state that fails is refused at start (SIM_STATE_INVALID with
 * the problems named by path), never half-loaded:
 * - ids are unique: working orders, order history records, trades, clord_id entries, balances, positions,
 *   books and stats each list a key once (an order listed twice would rest, and fill, twice);
 * - fill states add up: quantities positive, leaves within the order quantity, cum + leaves equal to it for a
 *   working order (at most it for a history record), notional and prices not negative, priority stamps unique;
 * - every working order has its history record, and every clord_id entry names a saved order;
 * - the id counters are at or above every saved id (orders, executions, trades, priority stamps), so no id is
 *   issued twice after the restart;
 * - money (cash, cost basis, realized PnL) is within ±MAX_AMOUNT.
 */
import { Decimal } from '../../domain/decimal.ts';
import { formatId, parseId } from '../matching/ids.ts';
import type { StateFile } from './schema.ts';

/** The largest absolute amount of money a state may hold (currency units). */
export const MAX_AMOUNT = new Decimal('1e15');

const orderId = (seq: number) => formatId('O', seq);

/** Reports `path: message` for each key seen before (`what` names the key in the message). */
function uniqueKeys<T>(items: readonly T[], path: string, key: (item: T) => string, what: (item: T) => string, problems: string[]): void {
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const k = key(item);
    if (seen.has(k)) problems.push(`${path}[${i}]: ${what(item)} is listed twice`);
    seen.add(k);
  });
}

function amount(text: string, path: string, problems: string[]): void {
  let value: Decimal;
  try {
    value = new Decimal(text);
  } catch {
    problems.push(`${path}: ${text} is not a decimal`);
    return;
  }
  if (!value.isFinite() || value.abs().gt(MAX_AMOUNT)) problems.push(`${path}: ${text} is outside ±${MAX_AMOUNT.toString()}`);
}

function workingOrders(state: StateFile, problems: string[]): void {
  const orders = state.engine.orders;
  uniqueKeys(
    orders,
    'engine.orders',
    (o) => String(o.terms.orderSeq),
    (o) => `order ${orderId(o.terms.orderSeq)}`,
    problems,
  );
  const priorities = new Map<number, number>();
  const records = new Set(state.orders.map((r) => r.latest.terms.orderSeq));
  orders.forEach((o, i) => {
    const at = `engine.orders[${i}]`;
    const qty = o.terms.orderQty;
    if (qty <= 0) problems.push(`${at}: orderQty ${qty} must be positive`);
    if (o.leavesQty > qty) problems.push(`${at}: leavesQty ${o.leavesQty} is above orderQty ${qty}`);
    else if (o.leavesQty <= 0 || o.cumQty < 0 || o.cumQty + o.leavesQty !== qty)
      problems.push(`${at}: cumQty ${o.cumQty} + leavesQty ${o.leavesQty} must equal orderQty ${qty} with leaves above 0`);
    if (o.cumNotional < 0 || o.price < 0) problems.push(`${at}: a negative price or notional`);
    const earlier = priorities.get(o.priority);
    if (earlier !== undefined) problems.push(`${at}: priority ${o.priority} is shared with engine.orders[${earlier}]`);
    priorities.set(o.priority, i);
    if (!records.has(o.terms.orderSeq)) problems.push(`${at}: order ${orderId(o.terms.orderSeq)} has no record in orders`);
  });
}

function history(state: StateFile, problems: string[]): void {
  uniqueKeys(
    state.orders,
    'orders',
    (r) => String(r.latest.terms.orderSeq),
    (r) => `order ${orderId(r.latest.terms.orderSeq)}`,
    problems,
  );
  state.orders.forEach((r, i) => {
    const { cumQty, leavesQty, terms } = r.latest;
    if (terms.orderQty <= 0 || cumQty < 0 || leavesQty < 0) problems.push(`orders[${i}]: quantities must be positive`);
    else if (cumQty + leavesQty > terms.orderQty)
      problems.push(`orders[${i}]: cumQty ${cumQty} + leavesQty ${leavesQty} is above orderQty ${terms.orderQty}`);
  });
  const saved = new Set(state.orders.map((r) => orderId(r.latest.terms.orderSeq)));
  uniqueKeys(
    state.clordIndex,
    'clordIndex',
    ([a, c]) => `${a}\u0000${c}`,
    ([a, c]) => `account ${a} clord_id ${c}`,
    problems,
  );
  state.clordIndex.forEach(([, , id], i) => {
    if (!saved.has(id)) problems.push(`clordIndex[${i}]: order ${id} is not among the saved orders`);
  });
}

function tape(state: StateFile, problems: string[]): void {
  uniqueKeys(
    state.trades,
    'trades',
    (t) => String(t.seq),
    (t) => `trade ${formatId('T', t.seq)}`,
    problems,
  );
  state.trades.forEach((t, i) => {
    if (t.qty <= 0 || t.price < 0) problems.push(`trades[${i}]: quantity must be positive and price not negative`);
  });
}

function counters(state: StateFile, problems: string[]): void {
  const c = state.engine.counters;
  let order = 0;
  let exec = 0;
  let trade = 0;
  let priority = 0;
  for (const o of state.engine.orders) {
    order = Math.max(order, o.terms.orderSeq);
    priority = Math.max(priority, o.priority);
  }
  for (const r of state.orders) order = Math.max(order, r.latest.terms.orderSeq);
  for (const [, , id] of state.clordIndex) order = Math.max(order, parseId('O', id));
  for (const t of state.trades) {
    trade = Math.max(trade, t.seq);
    exec = Math.max(exec, t.aggressor.seq, t.passive.seq);
    order = Math.max(order, t.aggressor.terms.orderSeq, t.passive.terms.orderSeq);
  }
  const below = (name: string, value: number, max: number, what: string, id: string) => {
    if (value < max) problems.push(`engine.counters.${name}: ${value} is below the saved ${what} id ${max} (${id})`);
  };
  below('order', c.order, order, 'order', formatId('O', order));
  below('exec', c.exec, exec, 'execution', formatId('E', exec));
  below('trade', c.trade, trade, 'trade', formatId('T', trade));
  if (c.priority < priority) problems.push(`engine.counters.priority: ${c.priority} is below the saved priority stamp ${priority}`);
}

function ledger(state: StateFile, problems: string[]): void {
  const { balances, positions } = state.ledger;
  uniqueKeys(
    balances,
    'ledger.balances',
    (b) => b.account,
    (b) => `account ${b.account}`,
    problems,
  );
  balances.forEach((b, i) => amount(b.cash, `ledger.balances[${i}].cash`, problems));
  uniqueKeys(
    positions,
    'ledger.positions',
    (p) => `${p.account}\u0000${p.symbol}`,
    (p) => `position ${p.account} ${p.symbol}`,
    problems,
  );
  positions.forEach((p, i) => {
    amount(p.cost, `ledger.positions[${i}].cost`, problems);
    amount(p.realizedPnl, `ledger.positions[${i}].realizedPnl`, problems);
  });
}

/** Every problem of a state file that its shape alone does not show; empty when it can be restored. */
export function stateProblems(state: StateFile): string[] {
  const problems: string[] = [];
  uniqueKeys(
    state.engine.books,
    'engine.books',
    (b) => b.symbol,
    (b) => `instrument ${b.symbol}`,
    problems,
  );
  uniqueKeys(
    state.stats,
    'stats',
    (s) => s.symbol,
    (s) => `instrument ${s.symbol}`,
    problems,
  );
  workingOrders(state, problems);
  history(state, problems);
  tape(state, problems);
  counters(state, problems);
  ledger(state, problems);
  return problems;
}
