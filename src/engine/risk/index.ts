/**
 * The risk layer: pre-trade rules, self-match prevention and the trading state (kill switch) between
 * strategies and the execution adapter. The engine builds a RiskManager from the `risk` config section,
 * implements RiskContext over its tracker, portfolio and books, and sends only what `check` approves.
 * `approve` is deliberately not exported here: only this layer mints approvals.
 */
export { RiskManager, type RiskManagerOptions } from './manager.ts';
export type { RiskContext, RiskInstrument, RiskOpenOrder, RiskPosition, ReferencePriceSource } from './context.ts';
export {
  riskSection,
  parseRiskConfig,
  DEFAULT_MAX_MESSAGES_PER_SECOND,
  VENUE_MAX_MESSAGES_PER_SECOND,
  type RiskConfig,
  type RiskConfigInput,
  type PriceBandConfig,
  type SelfMatchConfig,
} from './config.ts';
export {
  TradingStateMachine,
  TRADING_STATES,
  isTradingState,
  stricterState,
  type TradingState,
  type RestrictedState,
  type TradingStateCause,
  type TradingStateChange,
  type CancelAllRequired,
  type FeedTarget,
  type TradingStateOptions,
} from './trading-state.ts';
export { RiskErrorCode } from './errors.ts';
export { refuse, REFUSAL_CODES, type Approved, type Refused, type RefusalCode, type Verdict } from './verdict.ts';
