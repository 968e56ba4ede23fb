/**
 * The trade source a config reaches: the embedded exchange (a `sim` section and no `exchange`; see
 * embedded-sim.ts) or an environment, through the API family chosen per config: `bot.venue` (the family the
 * bot trades through: `gateway`, the default, or `familyA`), overridden by `--source`. Gateway: reference
 * data from family A, trades through the gateway client; family A: the /v1 trade search.
 */
import type { Logger } from 'pino';
import type { TradebotConfig } from '../../src/config/index.ts';
import { connect } from '../../src/bot/live/connection.ts';
import { createFamilyAClient } from '../../src/exchange/familya/index.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import { startEmbeddedHistory } from './embedded-sim.ts';
import type { HistorySource } from './format.ts';
import { familyASource, gatewaySource, type TradePageSource } from './trade-source.ts';

export interface ConnectOptions {
  readonly symbols: readonly string[];
  readonly from: number;
  readonly to: number;
  /** The --source flag; default: the config's bot.venue. */
  readonly source?: HistorySource;
  readonly logger: Logger;
}

/** The API family trades are fetched through: the flag, else the config's bot.venue. */
export function historySourceOf(config: TradebotConfig, flag: HistorySource | undefined): HistorySource {
  return flag ?? config.bot.venue;
}

export async function connectTradeSource(config: TradebotConfig, options: ConnectOptions): Promise<TradePageSource> {
  const source = historySourceOf(config, options.source);
  if (config.exchange === undefined) {
    if (config.sim === undefined)
      throw backtestError(
        BacktestErrorCode.HISTORY_NO_SOURCE,
        'the config has neither an exchange section nor a sim section: nothing to fetch trades from',
        { kind: 'config' },
      );
    const embedded = await startEmbeddedHistory(config.sim, options.from, options.to, options.logger, source);
    options.logger.info(
      { steps: embedded.steps, trades: embedded.sim.core.trades().length, source },
      'embedded exchange: market activity replayed in virtual time',
    );
    return embedded.source;
  }
  if (source === 'familyA') {
    const stack = createFamilyAClient(config.exchange, { logger: options.logger });
    return familyASource(stack.client, () => stack.client.close());
  }
  const connection = await connect(config, options.symbols, options.logger);
  return gatewaySource(connection.client, connection.instruments, () => connection.close());
}
