/**
 * Where a live run trades: with a config that has a `sim` section and no `exchange` section, the embedded
 * exchange is started in-process on 127.0.0.1 and the bot connects to it through the real clients; with
 * an `exchange` section (config/development.yaml etc.) it connects to that environment. Either way the
 * result is a gateway client, the instruments of the traded symbols and the accounts to follow.
 */
import type { Logger } from 'pino';
import type { TradebotConfig } from '../../config/index.ts';
import type { Instrument } from '../../domain/index.ts';
import { GatewayClient, instrumentCatalog, type GatewayCredentials } from '../../exchange/gateway/index.ts';
import { createFamilyAClient } from '../../exchange/familya/index.ts';
import { startSim, type RunningSim } from '../../sim/simulator.ts';
import { toDomainInstrument } from '../../sim/exchange/instruments.ts';
import { TradebotError } from '../../errors.ts';

export interface LiveConnection {
  client: GatewayClient;
  instruments: readonly Instrument[];
  /** Accounts the user may trade (from the sim's config, or who-am-i). */
  accounts: readonly string[];
  sim: RunningSim | undefined;
  close(): Promise<void>;
}

function configError(message: string): TradebotError {
  return new TradebotError('RUN_CONFIG_INCOMPLETE', message, { kind: 'config' });
}

export async function connect(config: TradebotConfig, symbols: readonly string[], logger: Logger): Promise<LiveConnection> {
  if (config.exchange === undefined) {
    if (config.sim === undefined) throw configError('the config has neither an exchange section (an environment) nor a sim section (the embedded exchange); add one');
    return connectToEmbeddedSim(config, logger);
  }
  return connectToEnvironment(config, symbols, logger);
}

async function connectToEmbeddedSim(config: TradebotConfig, logger: Logger): Promise<LiveConnection> {
  const simConfig = config.sim;
  if (simConfig === undefined) throw configError('no sim section');
  const sim = await startSim(simConfig, { logger: logger.child({ component: 'sim' }) });
  try {
    const wanted = config.bot.simUser;
    const user = wanted === undefined ? simConfig.users[0] : simConfig.users.find((u) => u.username === wanted);
    if (user === undefined) throw configError(wanted === undefined ? 'sim.users is empty: add a user for the bot to log in as' : `bot.simUser: no user "${wanted}" in sim.users`);
    const instruments = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
    const credentials: GatewayCredentials = { username: user.username, password: user.password, ...(user.mfaSecret === undefined ? {} : { totpSecret: user.mfaSecret }) };
    const client = new GatewayClient({ gatewayUrl: sim.ready.gateway, credentials, instruments: instrumentCatalog(instruments), logger: logger.child({ component: 'gateway' }) });
    await client.login();
    logger.info({ gateway: sim.ready.gateway, user: user.username }, 'connected to the embedded exchange');
    return {
      client,
      instruments,
      accounts: user.accounts,
      sim,
      close: async () => {
        await client.close();
        await sim.close();
      },
    };
  } catch (error) {
    await sim.close();
    throw error;
  }
}

async function connectToEnvironment(config: TradebotConfig, symbols: readonly string[], logger: Logger): Promise<LiveConnection> {
  const exchange = config.exchange;
  if (exchange === undefined) throw configError('no exchange section');
  if (exchange.gateway === undefined) throw configError('exchange.gateway is missing: give username, password (${ENV_VAR}) and, with MFA, mfaSecret');
  if (exchange.familyA === undefined) throw configError('exchange.familyA is missing: reference data (price scales, ticks) comes from the /v1 API; give clientId, privateKeyFile and participant');
  const familyA = createFamilyAClient(exchange, { logger });
  const instruments = await familyA.client.loadInstruments(symbols);
  const gateway = exchange.gateway;
  const credentials: GatewayCredentials = { username: gateway.username, password: gateway.password, ...(gateway.mfaSecret === undefined ? {} : { totpSecret: gateway.mfaSecret }) };
  const client = new GatewayClient({
    gatewayUrl: exchange.gatewayUrl,
    ...(exchange.privateLinkUrl === undefined ? {} : { privateLinkUrl: exchange.privateLinkUrl }),
    credentials,
    instruments: instrumentCatalog(instruments),
    logger: logger.child({ component: 'gateway' }),
  });
  await client.login();
  const whoAmI = await client.getWhoAmI();
  return {
    client,
    instruments,
    accounts: whoAmI.accounts,
    sim: undefined,
    close: async () => {
      await client.close();
      await familyA.client.close();
    },
  };
}
