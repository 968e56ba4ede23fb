/**
 * Turns an order-creating intent (place, replace, cross) into the orders it would put on the market, in one
 * shape the rules check: symbol, side, quantity, price, account, and for a replace the open order it
 * supersedes. Cancels create no order and have no candidates. Malformed intents (non-positive quantity,
 * foreign account, a client order id already used by an open order, ...) are reported here
 * (RISK_INVALID_INTENT, RISK_UNKNOWN_ORDER) so that the rules only ever see well-formed orders.
 *
 * A replace's quantity is taken as the new working quantity: if the venue reads it as the new total order
 * quantity, the working quantity is at most that, so every check stays on the safe side.
 */
import { ZERO, type Decimal } from '../../domain/decimal.ts';
import type { CrossIntent, Intent, IntentSide, PlaceIntent, ReplaceIntent } from '../intents.ts';
import { isOpenOrder, type RiskContext, type RiskOpenOrder } from './context.ts';
import type { RuleBreach } from './rules/rule.ts';

export interface OrderCandidate {
  readonly symbol: string;
  readonly side: IntentSide;
  /** Working quantity the order would have (> 0). */
  readonly qty: Decimal;
  /** Limit price; undefined for a market-to-limit order. */
  readonly price: Decimal | undefined;
  readonly account: string;
  /** The open order a replace supersedes (its leaves are replaced by `qty`). */
  readonly replaces: RiskOpenOrder | undefined;
  /** False for cross legs: they execute or die at once, so they never count as open orders or self-match. */
  readonly rests: boolean;
  /** False when a replace keeps the old quantity (quantity-only rules such as the minimum do not apply). */
  readonly qtyChanged: boolean;
}

export type CandidatesResult =
  { readonly ok: true; readonly candidates: readonly OrderCandidate[] } | { readonly ok: false; readonly breach: RuleBreach };

const invalid = (message: string): CandidatesResult => ({ ok: false, breach: { code: 'RISK_INVALID_INTENT', message } });

function quantityProblem(qty: Decimal): string | undefined {
  if (!qty.isFinite() || !qty.gt(ZERO)) return `quantity must be greater than 0, got ${qty.toString()}`;
  return undefined;
}

function priceProblem(price: Decimal | undefined): string | undefined {
  if (price !== undefined && !price.isFinite()) return `price must be a finite decimal, got ${price.toString()}`;
  return undefined;
}

/** The open order using `clordId` (as its own or as its pending replace's), if any (a loop: checked on every intent). */
function openOrderWith(clordId: string, context: RiskContext): RiskOpenOrder | undefined {
  const orders = context.openOrders();
  for (let i = 0; i < orders.length; i++) if (isOpenOrder(orders[i] as RiskOpenOrder, clordId)) return orders[i];
  return undefined;
}

function clordIdProblem(clordIds: readonly string[], context: RiskContext): string | undefined {
  for (const id of clordIds) if (openOrderWith(id, context) !== undefined) return `client order id ${id} is already used by an open order`;
  return undefined;
}

function accountProblem(account: string, context: RiskContext): string | undefined {
  return context.accounts().includes(account) ? undefined : `account ${account} is not one of the bot's accounts`;
}

function ofPlace(intent: PlaceIntent, context: RiskContext): CandidatesResult {
  const problem = quantityProblem(intent.qty) ?? priceProblem(intent.price);
  if (problem !== undefined) return invalid(problem);
  const account = intent.account ?? context.defaultAccount;
  const accountIssue = accountProblem(account, context) ?? clordIdProblem([intent.clordId], context);
  if (accountIssue !== undefined) return invalid(accountIssue);
  const candidate: OrderCandidate = {
    symbol: intent.symbol,
    side: intent.side,
    qty: intent.qty,
    price: intent.price,
    account,
    replaces: undefined,
    rests: true,
    qtyChanged: true,
  };
  return { ok: true, candidates: [candidate] };
}

function ofReplace(intent: ReplaceIntent, context: RiskContext): CandidatesResult {
  if (intent.qty === undefined && intent.price === undefined) return invalid('a replace must change the price or the quantity');
  const problem = (intent.qty === undefined ? undefined : quantityProblem(intent.qty)) ?? priceProblem(intent.price);
  if (problem !== undefined) return invalid(problem);
  const order = openOrderWith(intent.clordId, context);
  if (order === undefined)
    return { ok: false, breach: { code: 'RISK_UNKNOWN_ORDER', message: `no open order ${intent.clordId} to replace` } };
  if (openOrderWith(intent.newClordId, context) !== undefined)
    return invalid(`client order id ${intent.newClordId} is already used by an open order`);
  const candidate: OrderCandidate = {
    // a replace in flight is superseded by this one: unchanged terms are the ones it was moving the order to
    symbol: order.symbol,
    side: order.side,
    qty: intent.qty ?? order.leavesQty,
    price: intent.price ?? order.pendingReplace?.price ?? order.price,
    account: order.account,
    replaces: order,
    rests: true,
    qtyChanged: intent.qty !== undefined,
  };
  return { ok: true, candidates: [candidate] };
}

function ofCross(intent: CrossIntent, context: RiskContext): CandidatesResult {
  const problem =
    quantityProblem(intent.qty) ??
    priceProblem(intent.price) ??
    accountProblem(intent.buy.account, context) ??
    accountProblem(intent.sell.account, context) ??
    clordIdProblem([intent.buy.clordId, intent.sell.clordId], context);
  if (problem !== undefined) return invalid(problem);
  if (intent.buy.side !== 'BUY' || intent.sell.side !== 'SELL') return invalid('a cross needs a BUY leg and a SELL leg');
  if (intent.buy.account === intent.sell.account) return invalid(`a cross needs two different accounts, got ${intent.buy.account} twice`);
  const leg = (account: string, side: IntentSide): OrderCandidate => ({
    symbol: intent.symbol,
    side,
    qty: intent.qty,
    price: intent.price,
    account,
    replaces: undefined,
    rests: false,
    qtyChanged: true,
  });
  return { ok: true, candidates: [leg(intent.buy.account, 'BUY'), leg(intent.sell.account, 'SELL')] };
}

export function candidatesOf(intent: Intent, context: RiskContext): CandidatesResult {
  switch (intent.kind) {
    case 'place':
      return ofPlace(intent, context);
    case 'replace':
      return ofReplace(intent, context);
    case 'cross':
      return ofCross(intent, context);
    case 'cancel':
    case 'cancelAll':
      return { ok: true, candidates: [] };
  }
}
