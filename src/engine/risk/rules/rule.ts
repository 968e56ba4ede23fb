/**
 * The shape of a pre-trade rule: one check of one order candidate, returning a breach (refusal code and a
 * message naming the value and the limit) or undefined. Rules are pure functions of their input; the few
 * that keep state (the message-rate throttle) or change it (daily loss) live outside this shape.
 */
import { formatDecimal, type Decimal } from '../../../domain/decimal.ts';
import type { RiskContext, RiskInstrument, RiskOpenOrder } from '../context.ts';
import type { OrderCandidate } from '../candidate.ts';
import type { ExposureView } from '../exposure.ts';
import type { RefusalCode } from '../verdict.ts';

export interface RuleBreach {
  readonly code: RefusalCode;
  readonly message: string;
}

export interface RuleInput {
  readonly candidate: OrderCandidate;
  readonly instrument: RiskInstrument;
  readonly context: RiskContext;
  readonly exposure: ExposureView;
  /** Open orders that approved self-match cancels remove before this order is sent. */
  readonly withdrawn: readonly RiskOpenOrder[];
}

export interface OrderRule {
  /** The config key (or instrument property) the rule enforces, for logs. */
  readonly name: string;
  check(input: RuleInput): RuleBreach | undefined;
}

/** Plain decimal text for messages ("0.55", never an exponent). */
export const fmt = (value: Decimal): string => formatDecimal(value);

/** "BUY 5 X @ 0.55" / "SELL 5 X at market". */
export function describeOrder(candidate: OrderCandidate): string {
  const price = candidate.price === undefined ? 'at market' : `@ ${fmt(candidate.price)}`;
  return `${candidate.side} ${fmt(candidate.qty)} ${candidate.symbol} ${price}`;
}
