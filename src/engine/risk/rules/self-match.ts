/**
 * Self-match prevention before sending: finds the bot's own resting orders on the other side of the same
 * symbol that an order would trade against (a buy at or above a resting sell's price, a sell at or below a
 * resting buy's; a market order crosses every one; an unpriced resting order is assumed to cross; an order
 * with a replace in flight crosses at its old price or its new one). Scope
 * `account` looks at the order's account only, `bot` at every account of the bot. The manager refuses
 * (RISK_SELF_MATCH) or sends cancels for these orders first, per config.
 */
import type { Decimal } from '../../../domain/decimal.ts';
import type { RiskOpenOrder } from '../context.ts';
import type { OrderCandidate } from '../candidate.ts';
import type { RuleBreach } from './rule.ts';
import { describeOrder, fmt } from './rule.ts';

export type SelfMatchScope = 'account' | 'bot';

function crossesAt(candidate: OrderCandidate, price: Decimal | undefined): boolean {
  if (candidate.price === undefined || price === undefined) return true;
  return candidate.side === 'BUY' ? candidate.price.greaterThanOrEqualTo(price) : candidate.price.lessThanOrEqualTo(price);
}

/** At its price, or at the one a replace in flight moves it to (the exchange may apply that first). */
function crosses(candidate: OrderCandidate, resting: RiskOpenOrder): boolean {
  const pending = resting.pendingReplace;
  return (
    crossesAt(candidate, resting.price) || (pending !== undefined && pending.price !== undefined && crossesAt(candidate, pending.price))
  );
}

export function selfMatches(candidate: OrderCandidate, openOrders: readonly RiskOpenOrder[], scope: SelfMatchScope): RiskOpenOrder[] {
  if (!candidate.rests) return [];
  return openOrders.filter(
    (o) =>
      o.symbol === candidate.symbol &&
      o.side !== candidate.side &&
      (scope === 'bot' || o.account === candidate.account) &&
      crosses(candidate, o),
  );
}

/** `strategyOf`: with several strategies in the bot, the one whose order it is (named in the message). */
export function selfMatchBreach(
  candidate: OrderCandidate,
  conflicts: readonly RiskOpenOrder[],
  strategyOf?: (clordId: string) => string | undefined,
): RuleBreach {
  const owner = (clordId: string) => {
    const strategy = strategyOf?.(clordId);
    return strategy === undefined ? '' : `, strategy ${strategy}`;
  };
  const list = conflicts
    .map(
      (o) =>
        `${o.clordId} (${o.side} ${fmt(o.leavesQty)} @ ${o.price === undefined ? 'market' : fmt(o.price)}, ` +
        `${o.account}${owner(o.clordId)})`,
    )
    .join(', ');
  return { code: 'RISK_SELF_MATCH', message: `${describeOrder(candidate)} would trade against the bot's own order(s) ${list}` };
}
