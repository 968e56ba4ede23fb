/**
 * Config rule `maxDailyLoss`: once today's realized + unrealized PnL reaches -maxDailyLoss, the trading state
 * moves to `onDailyLoss` (sticky until the operator sets a state) and intents that are not risk-reducing are
 * refused (RISK_DAILY_LOSS). This module only measures; the manager switches the state.
 *
 * The manager asks on every PnL change (each mark of a held position) and again in every check: the answer
 * for the PnL the context gave last time (the same Decimal object: the engine keeps it until the portfolio
 * changes, and Decimals are immutable) is kept, and the loss is compared with the floor -maxDailyLoss, worked
 * out once, so an answer allocates nothing.
 */
import type { Decimal } from '../../../domain/decimal.ts';
import type { RiskContext } from '../context.ts';
import { fmt } from './rule.ts';
import { ZERO } from '../../../domain/decimal.ts';

export class DailyLossRule {
  private readonly floor: Decimal;
  private lastPnl: Decimal | undefined;
  private lastBreach: string | undefined;

  constructor(private readonly maxDailyLoss: Decimal) {
    this.floor = maxDailyLoss.negated();
  }

  /** The breach description, or undefined while the loss is below the limit. */
  breach(context: RiskContext): string | undefined {
    const pnl = context.dailyPnl();
    if (pnl === this.lastPnl) return this.lastBreach;
    // no loss, or pnl > -maxDailyLoss: no breach
    const breach =
      pnl.gte(ZERO) || pnl.gt(this.floor)
        ? undefined
        : `daily PnL ${fmt(pnl)} reached the loss limit maxDailyLoss ${fmt(this.maxDailyLoss)}`;
    this.lastPnl = pnl;
    this.lastBreach = breach;
    return breach;
  }
}
