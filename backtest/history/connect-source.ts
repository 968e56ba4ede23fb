/**
 * The trade source a config reaches: the embedded exchange (a `sim` section and no `exchange`; see
 * embedded-sim.ts), or an environment's gateway (`--source gateway`, the default: reference data from
 * family A, trades through the gateway client) or family A (`--source familyA`).
 */
import type { Logger } from 'pino';
import type { TradebotConfig } from '../../src/config/index.ts';
import { connect } from '../../src/engine/live/connection.ts';
import { createFamilyAClient } from '../../src/exchange/familya/index.ts';
import { BacktestErrorCode, backtestError } from '../errors.ts';
import { startEmbeddedHistory } from './embedded-sim.ts';
import type { HistorySource } from './format.ts';
import { familyASource, gatewaySource, type TradePageSource } from './trade-source.ts';

export interface ConnectOptions {
  readonly symbols: readonly string[];
  readonly from: number;
  readonly to: number;
  readonly source?: HistorySource;
  readonly logger: Logger;
}

export async function connectTradeSource(config: TradebotConfig, options: ConnectOptions): Promise<TradePageSource> {
  if (config.exchange === undefined) {
    if (config.sim === undefined) throw backtestError(BacktestErrorCode.HISTORY_NO_SOURCE, 'the config has neither an exchange section nor a sim section: nothing to fetch trades from', { kind: 'config' });
    if (options.source === 'familyA') {
      throw backtestError(BacktestErrorCode.HISTORY_NO_SOURCE, 'against the embedded exchange, history is fetched through the gateway (--source gateway): its family A API needs a registered client key', { kind: 'config' });
    }
    const embedded = await startEmbeddedHistory(config.sim, options.from, options.to, options.logger);
    options.logger.info({ steps: embedded.steps, trades: embedded.sim.core.trades().length }, 'embedded exchange: market activity replayed in virtual time');
    return embedded.source;
  }
  if (options.source === 'familyA') {
    const stack = createFamilyAClient(config.exchange, { logger: options.logger });
    return familyASource(stack.client, () => stack.client.close());
  }
  const connection = await connect(config, options.symbols, options.logger);
  return gatewaySource(connection.client, connection.instruments, () => connection.close());
}
