/**
 * Runs synthetic market activity against the exchange core on a timer (the simulator is a process of
 * its own, so it owns real timers; the bot's pipeline never does). Each tick moves fair values, refreshes
 * quotes, maybe sends taker orders, and expires GOOD_TILL_TIME orders.
 */
import type { Logger } from 'pino';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import type { SimConfig } from '../config.ts';
import { MarketActivity, type ActivityVenue } from './market-activity.ts';

export interface ActivityDriver {
  activity: MarketActivity;
  /** Runs one step now (tests and benchmarks drive it by hand). */
  step(): void;
  stop(): void;
}

export function coreAsActivityVenue(core: ExchangeCore): ActivityVenue {
  return {
    submit: (request) => void core.submit(request),
    cancelAll: (account, symbol) => {
      if (core.openOrders({ account, symbol }).length > 0) core.massCancel({ account, symbol });
    },
    bestPrices: (symbol) => {
      const bbo = core.engine.bbo(symbol);
      return { bid: bbo.bid?.price, offer: bbo.offer?.price };
    },
  };
}

export function startActivity(
  core: ExchangeCore,
  settings: SimConfig['activity'],
  logger: Logger,
  options: { timer?: boolean } = {},
): ActivityDriver {
  const activity = new MarketActivity(
    core.instruments().map((i) => ({
      symbol: i.symbol,
      tickSize: i.definition.tickSize,
      lotSize: i.definition.lotSize,
      priceLimitLow: i.definition.priceLimitLow,
      priceLimitHigh: i.definition.priceLimitHigh,
      fairValue: i.fairValueRaw,
    })),
    {
      seed: settings.seed,
      makersPerInstrument: settings.makersPerInstrument,
      takerProbability: settings.takerProbability.toNumber(),
      volatilityTicks: settings.volatilityTicks.toNumber(),
      maxOrderLots: settings.maxOrderQty,
    },
  );
  const venue = coreAsActivityVenue(core);
  const step = () => {
    try {
      core.expire();
      activity.step(venue);
    } catch (error) {
      logger.error({ err: error }, 'market activity step failed');
    }
  };
  activity.seed(venue);
  const timer = options.timer === false ? undefined : setInterval(step, settings.intervalMs);
  timer?.unref();
  return { activity, step, stop: () => clearInterval(timer) };
}
