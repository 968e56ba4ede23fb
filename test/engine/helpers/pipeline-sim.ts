/**
 * The full pipeline against the real simulator over loopback, for engine and strategy tests: now the public sim
 * bot of `tradebot/testing` (src/testing/sim-bot.ts), re-exported here under the names these tests use.
 */
export {
  startPipelineSim,
  startSimBot,
  absNumber,
  SIM_SYMBOL as SYMBOL,
  SIM_OTHER_SYMBOL as OTHER_SYMBOL,
  SIM_ACCOUNT as ALICE_MAIN,
  SIM_HEDGE_ACCOUNT as ALICE_HEDGE,
  type PipelineSim,
  type PipelineSimOptions,
} from '../../../src/testing/sim-bot.ts';
export { ObservedVenue, type VenueCall } from '../../../src/testing/observed-venue.ts';
