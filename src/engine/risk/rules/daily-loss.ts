/**
 * Config rule `maxDailyLoss`: once today's realized + unrealized PnL reaches -maxDailyLoss, the trading state
 * moves to `onDailyLoss` (sticky until the operator sets a state) and intents that are not risk-reducing are
 * refused (RISK_DAILY_LOSS). This module only measures; the manager switches the state.
 */
import type { Decimal } from '../../../domain/decimal.ts';
import type { RiskContext } from '../context.ts';
import { fmt } from './rule.ts';
import { ZERO } from '../../../domain/decimal.ts';

/** The breach description, or undefined while the loss is below the limit. */
export function dailyLossBreach(context: RiskContext, maxDailyLoss: Decimal): string | undefined {
  const pnl = context.dailyPnl();
  // pnl > -maxDailyLoss, i.e. pnl + maxDailyLoss > 0 (allocation-free for the usual flat or positive PnL)
  if (pnl.gte(ZERO) || pnl.plus(maxDailyLoss).gt(ZERO)) return undefined;
  return `daily PnL ${fmt(pnl)} reached the loss limit maxDailyLoss ${fmt(maxDailyLoss)}`;
}
