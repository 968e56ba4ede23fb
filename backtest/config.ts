/**
 * The `backtest` config section and the loader of backtest configs (config/backtest.yaml): the usual
 * tradebot sections (logging, bot: strategy, params, account, fees; risk) plus `backtest`:
 *
 *   backtest:
 *     startingCash: "10000"                 # cash of the bot's account at the start
 *     latency: { insertMs: 50, cancelMs: 50, replaceMs: 50 }   # virtual ms until a request reaches the exchange
 *     commissions: { takerBps: "10", makerBps: "0" }           # on each order; default: bot.fees
 *     queueAheadModel: { model: volume, windowMs: 30000 }      # | { model: level, fraction: "0.5" } | { model: none }
 *     tradeThrough: print                   # a print through an order's price fills it by at most the print's quantity
 *                                           # (the tape's volume is conserved); full: in full (optimistic)
 *     book: { depth: 5, sizeWindowMs: 60000, levelTtlMs: 300000 }   # the synthetic book from the tape
 *     settlement: { SYMBOL: "1" }           # settlement price of contracts expiring in the data (default: from the data, else none)
 *     metricsIntervalMs: 60000              # equity sampling for drawdown, the charts and (short data) sharpe/sortino
 *     supersedeWindow: 10000                # records a trade waits for a busting record
 *     maxSeriesPoints: 5000
 *
 * Every key has a default, so the section may be left out. CLI flags override single values.
 */
import { z } from 'zod';
import { configSchema, loadConfigFile, type ConfigContext } from '../src/config/index.ts';
import { decimal, positiveInt } from '../src/config/fields.ts';
import type { Decimal } from '../src/domain/decimal.ts';
import type { QueueAheadModel } from './replay/queue-model.ts';

const nonNegativeInt = (what: string) =>
  z
    .number({ error: `expected ${what}` })
    .int(`expected ${what}`)
    .min(0, `expected ${what} >= 0`);

function queueModelSection() {
  return z
    .discriminatedUnion(
      'model',
      [
        z.strictObject({ model: z.literal('volume'), windowMs: positiveInt('a window in milliseconds').default(30_000) }),
        z.strictObject({ model: z.literal('level'), fraction: decimal({ min: '0', max: '1' }).prefault('0.5') }),
        z.strictObject({ model: z.literal('none') }),
      ],
      { error: 'expected { model: volume | level | none }' },
    )
    .prefault({ model: 'volume' });
}

export function backtestSection() {
  return z
    .strictObject({
      startingCash: decimal({ min: '0' }).prefault('10000'),
      latency: z
        .strictObject({
          insertMs: nonNegativeInt('milliseconds').default(50),
          cancelMs: nonNegativeInt('milliseconds').default(50),
          /** Default: cancelMs. */
          replaceMs: nonNegativeInt('milliseconds').optional(),
        })
        .prefault({}),
      commissions: z.strictObject({ takerBps: decimal({ min: '0' }), makerBps: decimal({ min: '0' }) }).optional(),
      queueAheadModel: queueModelSection(),
      /**
       * An order the tape trades through: `print` (default, since #22) fills it by at most the print's quantity,
       * so the bot never fills more than the tape traded at or through its prices; `full` fills it in full (optimistic).
       */
      tradeThrough: z
        .enum(['full', 'print'], { error: 'must be print (by at most the print quantity) or full (an order traded through fills in full)' })
        .default('print'),
      book: z
        .strictObject({
          depth: positiveInt('a number of levels').default(5),
          sizeWindowMs: positiveInt('a window in milliseconds').default(60_000),
          levelTtlMs: positiveInt('a lifetime in milliseconds').default(300_000),
        })
        .prefault({}),
      settlement: z.record(z.string(), decimal({ min: '0', max: '1' })).default({}),
      metricsIntervalMs: positiveInt('an interval in milliseconds').default(60_000),
      supersedeWindow: positiveInt('a number of records').default(10_000),
      maxSeriesPoints: positiveInt('a number of points').default(5000),
    })
    .prefault({});
}

export type BacktestSection = z.output<ReturnType<typeof backtestSection>>;

export function backtestConfigSchema(context: ConfigContext) {
  return configSchema(context).extend({ backtest: backtestSection() });
}

export type BacktestConfig = z.output<ReturnType<typeof backtestConfigSchema>>;

export const DEFAULT_BACKTEST_CONFIG = 'config/backtest.yaml';

/** Loads a config with an optional `backtest` section (any tradebot config works too). */
export function loadBacktestConfig(file: string): BacktestConfig {
  return loadConfigFile(file, backtestConfigSchema);
}

/** The section's queue model with plain numbers. */
export function queueModelOf(section: BacktestSection): QueueAheadModel {
  const m = section.queueAheadModel;
  if (m.model === 'level') return { model: 'level', fraction: (m.fraction as Decimal).toNumber() };
  return m;
}
