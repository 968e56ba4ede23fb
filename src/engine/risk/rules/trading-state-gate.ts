/**
 * The trading-state gate: `halted` lets only cancels through (RISK_TRADING_HALTED); `reducing` lets cancels
 * through and orders that only bring a position towards zero without flipping it, counting the open orders
 * on the same side, and replaces that neither raise their order's quantity nor move it towards the other side
 * (RISK_TRADING_REDUCING otherwise).
 * For a cross every leg must reduce.
 */
import type { OrderCandidate } from '../candidate.ts';
import type { ExposureView } from '../exposure.ts';
import type { TradingState } from '../trading-state.ts';
import type { RuleBreach } from './rule.ts';
import { describeOrder, fmt } from './rule.ts';

export function tradingStateBreach(
  state: TradingState,
  reason: string,
  candidates: readonly OrderCandidate[],
  exposure: ExposureView,
): RuleBreach | undefined {
  if (candidates.length === 0 || state === 'active') return undefined;
  if (state === 'halted') return { code: 'RISK_TRADING_HALTED', message: `trading is halted (${reason}): only cancels pass` };
  // a replace that does not raise its order's working quantity adds no exposure (shrinking a bid, or moving
  // it away, while flat or over a limit is how a strategy winds down)
  const increasing = candidates.find((c) => !exposure.isReducing(c) && !windsDown(c));
  if (increasing === undefined) return undefined;
  const position = exposure.position(increasing.symbol, increasing.account);
  const open = exposure.openQty(increasing.symbol, increasing.account, increasing.side, increasing.replaces);
  return {
    code: 'RISK_TRADING_REDUCING',
    message:
      `trading is reducing (${reason}): ${describeOrder(increasing)} does not only reduce position ${fmt(position)} ` +
      `(open ${increasing.side} orders ${fmt(open)})`,
  };
}

/** A replace that neither raises its order's quantity nor moves its price towards the other side. */
function windsDown(c: OrderCandidate): boolean {
  const old = c.replaces;
  if (old === undefined || !c.qty.lte(old.leavesQty)) return false;
  if (c.price === undefined || old.price === undefined) return c.price === old.price;
  return c.side === 'BUY' ? c.price.lte(old.price) : c.price.gte(old.price);
}
