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
import { grpcStreams, onboardEphemeralClient, BOT_CLIENT_ID, type StreamSources } from './stream-transport.ts';

export interface LiveConnection {
  client: GatewayClient;
  instruments: readonly Instrument[];
  /** Accounts the user may trade (from the sim's config, or who-am-i). */
  accounts: readonly string[];
  sim: RunningSim | undefined;
  /** Streams from another transport than the gateway's NDJSON (bot.streams: grpc); undefined: NDJSON. */
  streams: StreamSources | undefined;
  close(): Promise<void>;
}

/** gRPC streams when asked for, and always with the family A venue (family A has no REST streams). */
export function usesGrpc(config: TradebotConfig): boolean {
  return config.bot.streams === 'grpc' || config.bot.venue === 'familyA';
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
  if (config.sim === undefined) throw configError('no sim section');
  const wanted = config.bot.simUser;
  const user = wanted === undefined ? config.sim.users[0] : config.sim.users.find((u) => u.username === wanted);
  if (user === undefined) throw configError(wanted === undefined ? 'sim.users is empty: add a user for the bot to log in as' : `bot.simUser: no user "${wanted}" in sim.users`);
  const onboarded = usesGrpc(config) ? onboardEphemeralClient(config.sim, user.participant) : undefined;
  const simConfig = onboarded?.sim ?? config.sim;
  const sim = await startSim(simConfig, { logger: logger.child({ component: 'sim' }) });
  let streams: StreamSources | undefined;
  try {
    const instruments = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
    const credentials: GatewayCredentials = { username: user.username, password: user.password, ...(user.mfaSecret === undefined ? {} : { totpSecret: user.mfaSecret }) };
    const client = new GatewayClient({ gatewayUrl: sim.ready.gateway, credentials, instruments: instrumentCatalog(instruments), logger: logger.child({ component: 'gateway' }) });
    await client.login();
    if (onboarded !== undefined) {
      const exchange = {
        apiUrl: sim.ready.api,
        authUrl: sim.ready.auth,
        gatewayUrl: sim.ready.gateway,
        grpcAddress: sim.ready.grpc,
        familyA: { clientId: BOT_CLIENT_ID, privateKeyFile: onboarded.privateKeyFile, participant: user.participant, refreshMarginSeconds: 30 },
      };
      streams = grpcStreams(exchange, instruments, logger);
    }
    logger.info({ gateway: sim.ready.gateway, grpc: onboarded === undefined ? undefined : sim.ready.grpc, user: user.username, streams: config.bot.streams }, 'connected to the embedded exchange');
    return {
      client,
      instruments,
      accounts: user.accounts,
      sim,
      streams,
      close: async () => {
        await streams?.close();
        await client.close();
        await sim.close();
        onboarded?.cleanup();
      },
    };
  } catch (error) {
    await streams?.close();
    await sim.close();
    onboarded?.cleanup();
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
  const streams = usesGrpc(config) ? grpcStreams(exchange, instruments, logger) : undefined;
  return {
    client,
    instruments,
    accounts: whoAmI.accounts,
    sim: undefined,
    streams,
    close: async () => {
      await streams?.close();
      await client.close();
      await familyA.client.close();
    },
  };
}
