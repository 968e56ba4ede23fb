/**
 * Which params a backtest runs a strategy with, the way `tradebot sweep` chooses its base params:
 *  1. the params given (--params, or the caller's);
 *  2. else the config's `bot.params`, but only when the config's `bot.strategy` is the strategy being run
 *     (params written for another strategy would not fit it);
 *  3. else the strategy's own defaults, with `symbols` set to the data's symbols when its schema takes a
 *     symbol list (a strategy has no default market); when that is not enough (another required param) the
 *     validation error says so, and that the config's params were for another strategy.
 */
import type { Logger } from 'pino';
import { ConfigError } from '../src/config/index.ts';
import type { AnyStrategy } from '../src/engine/strategy/define-strategy.ts';
import { resolveStrategyPath, validateParams } from '../src/engine/strategy/loader.ts';
import type { BacktestConfig } from './config.ts';

export interface ParamsChoice {
  /** Strategy name or path as given (undefined: the config's bot.strategy), or a loaded definition. */
  readonly requested: string | AnyStrategy | undefined;
  readonly definition: AnyStrategy;
  readonly given: unknown;
  readonly config: BacktestConfig;
  /** Symbols of the data file (defaults for a strategy's `symbols`). */
  readonly dataSymbols: readonly string[];
  readonly log: Logger;
  /** The YAML file `given` came from: errors name it, with keys at its root (as `tradebot run --params`). */
  readonly givenFile?: string;
  /** The config file: errors about its `bot.params` name it. */
  readonly configFile?: string;
}

function sameStrategy(requested: string | AnyStrategy | undefined, definition: AnyStrategy, configured: string): boolean {
  if (requested === undefined) return true;
  if (typeof requested === 'object') return definition.name === configured;
  if (requested === configured) return true;
  try {
    return resolveStrategyPath(requested) === resolveStrategyPath(configured);
  } catch {
    return false;
  }
}

/** The validated params for the run (see the module comment). */
export function chooseParams(o: ParamsChoice): unknown {
  if (o.given !== undefined) return validateParams(o.definition, o.given, o.givenFile === undefined ? {} : { file: o.givenFile, path: '' });
  const configured = o.config.bot.strategy;
  if (sameStrategy(o.requested, o.definition, configured))
    return validateParams(o.definition, o.config.bot.params, {
      path: 'bot.params',
      ...(o.configFile === undefined ? {} : { file: o.configFile }),
    });
  const withSymbols = { symbols: [...o.dataSymbols] };
  const defaults = o.definition.params.safeParse(withSymbols).success ? withSymbols : {};
  try {
    const params = validateParams(o.definition, defaults);
    o.log.warn(
      { strategy: o.definition.name, configured, params: defaults },
      `the config's bot.params are for ${configured}, not ${o.definition.name}: running ${o.definition.name} with its defaults` +
        `${defaults === withSymbols ? ` on the data's symbols (${o.dataSymbols.join(', ')})` : ''}; give --params <yaml> to choose`,
    );
    return params;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new ConfigError(
      error.problems,
      `params of strategy ${o.definition.name} (the config's bot.params are for ${configured} and were not used: give --params <yaml>)`,
    );
  }
}
