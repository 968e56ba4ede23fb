/**
 * `tradebot/testing`: unit-test a strategy plugin with any test runner (vitest, node:test, jest), importing only
 * `tradebot/strategy` and `tradebot/testing`. Two harnesses, both running the plugin in the real engine pipeline
 * (risk, execution adapter, order tracker, portfolio), both recording what the strategy did:
 *
 * - `startScriptedMarket`: an in-memory venue on a virtual clock. The test sets books, prints trades, moves
 *   time and decides what the venue does with each order. Deterministic, no network, milliseconds per test.
 * - `startSimBot`: the embedded exchange simulator in-process on 127.0.0.1 (real REST and streams), alice
 *   logged in through the real gateway client, synthetic market activity stepped by the test or on a timer.
 *
 * Nothing here depends on a test framework: helpers return promises and throw TradebotErrors with a stable
 * `code` (`TESTING_*`, see TestingErrorCode).
 */
export {
  startScriptedMarket,
  settleVenue,
  SCRIPTED_ACCOUNT,
  SCRIPTED_START,
  type ScriptedMarket,
  type ScriptedMarketOptions,
  type TradingStateInfo,
} from './scripted-market.ts';
export {
  ScriptedVenue,
  DEFAULT_POLICY,
  type CallAnswer,
  type InsertAnswer,
  type ScriptedVenuePolicy,
  type HeldCall,
  type StartingPosition,
} from './scripted-venue.ts';
export type { BookInput, BookLevelInput } from './scripted-book.ts';
export type { ScriptedOrderView, ScriptedOrderStatus } from './venue-orders.ts';
export { scriptedInstrument, type ScriptedInstrument } from './instruments.ts';
export type { OrderRef } from './order-ref.ts';
export { recordStrategy, StrategyRecorder } from './recorder.ts';
export type {
  RecordedIntent,
  RecordedRefusal,
  RecordedFill,
  PlaceRecord,
  CancelRecord,
  ReplaceRecord,
  CancelAllRecord,
  CrossRecord,
} from './records.ts';
export { testingError, type TestingErrorCode } from './errors.ts';
export {
  startSimBot,
  startPipelineSim,
  absNumber,
  SIM_SYMBOL,
  SIM_OTHER_SYMBOL,
  SIM_ACCOUNT,
  SIM_HEDGE_ACCOUNT,
  type SimBot,
  type SimBotOptions,
  type PipelineSim,
  type PipelineSimOptions,
} from './sim-bot.ts';
export { ObservedVenue, type VenueCall } from './observed-venue.ts';
