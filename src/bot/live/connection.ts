/**
 * Where a live run trades: with a config that has a `sim` section and no `exchange` section, the embedded
 * exchange is started in-process on 127.0.0.1 and the bot connects to it through the real clients; with
 * an `exchange` section (config/development.yaml etc.) it connects to that environment. The run plan
 * (run-plan.ts) says which clients to open: the gateway login, the family A client, the gRPC channel.
 *
 * `connectVenue` is the live runner's entry: the Venue of `bot.venue` with each stream on the transport of
 * `bot.streams`. `connect` is for tools that need the gateway client itself (history fetch, the soak).
 */
import type { Logger } from 'pino';
import type { TradebotConfig } from '../../config/index.ts';
import type { Instrument } from '../../domain/index.ts';
import { GatewayClient, instrumentCatalog, type GatewayCredentials } from '../../exchange/gateway/index.ts';
import { createFamilyAClient, type FamilyAStack } from '../../exchange/familya/index.ts';
import type { ExchangeConfig } from '../../exchange/config.ts';
import { startSim, type RunningSim } from '../../sim/simulator.ts';
import { toDomainInstrument } from '../../sim/exchange/instruments.ts';
import { TradebotError } from '../../errors.ts';
import type { Venue } from '../../engine/venue.ts';
import { GatewayVenue } from '../venues/gateway-venue.ts';
import { FamilyAVenue } from '../venues/familya-venue.ts';
import { assertRunPlan, type RunPlan } from './run-plan.ts';
import { grpcStreamsOf, ndjsonStreamsOf, onboardEphemeralClient, pickStreams, BOT_CLIENT_ID } from './stream-transport.ts';

export interface LiveConnection {
  client: GatewayClient;
  instruments: readonly Instrument[];
  /** Accounts the user may trade (from the sim's config, or who-am-i). */
  accounts: readonly string[];
  sim: RunningSim | undefined;
  close(): Promise<void>;
}

export interface VenueConnection {
  venue: Venue;
  plan: RunPlan;
  instruments: readonly Instrument[];
  accounts: readonly string[];
  sim: RunningSim | undefined;
  close(): Promise<void>;
}

/** The clients one run opened, and how to close them all. */
interface Session {
  sim: RunningSim | undefined;
  instruments: readonly Instrument[];
  accounts: readonly string[];
  gateway: GatewayClient | undefined;
  familyA: FamilyAStack | undefined;
  /** host:port of the gRPC endpoint (with the embedded exchange, the sim's). */
  grpcAddress: string | undefined;
  close(): Promise<void>;
}

function configError(message: string): TradebotError {
  return new TradebotError('RUN_CONFIG_INCOMPLETE', message, { kind: 'config' });
}

function gatewayCredentials(c: { username: string; password: string; mfaSecret?: string | undefined }): GatewayCredentials {
  return { username: c.username, password: c.password, ...(c.mfaSecret === undefined ? {} : { totpSecret: c.mfaSecret }) };
}

/** Closes each step even when an earlier one failed; the first failure is rethrown at the end. */
async function closeAll(steps: readonly (() => Promise<unknown> | unknown)[]): Promise<void> {
  let first: unknown;
  for (const step of steps) {
    try {
      await step();
    } catch (error) {
      first ??= error;
    }
  }
  if (first !== undefined) throw first;
}

async function openEmbedded(config: TradebotConfig, plan: RunPlan, logger: Logger): Promise<Session> {
  if (config.sim === undefined) throw configError('no sim section');
  const wanted = config.bot.simUser;
  const user = wanted === undefined ? config.sim.users[0] : config.sim.users.find((u) => u.username === wanted);
  if (user === undefined)
    throw configError(
      wanted === undefined ? 'sim.users is empty: add a user for the bot to log in as' : `bot.simUser: no user "${wanted}" in sim.users`,
    );
  const onboarded = plan.needsFamilyA ? onboardEphemeralClient(config.sim, user.participant) : undefined;
  const sim = await startSim(onboarded?.sim ?? config.sim, { logger: logger.child({ component: 'sim' }) });
  let gateway: GatewayClient | undefined;
  let familyA: FamilyAStack | undefined;
  const close = () => closeAll([() => gateway?.close(), () => familyA?.client.close(), () => sim.close(), () => onboarded?.cleanup()]);
  try {
    const instruments = sim.core.instruments().map((i) => toDomainInstrument(i, sim.core.instrumentState(i.symbol), sim.core.currency));
    if (plan.needsGateway) {
      gateway = new GatewayClient({
        gatewayUrl: sim.ready.gateway,
        credentials: gatewayCredentials(user),
        instruments: instrumentCatalog(instruments),
        logger: logger.child({ component: 'gateway' }),
      });
      await gateway.login();
    }
    if (onboarded !== undefined) {
      const exchange: ExchangeConfig = {
        apiUrl: sim.ready.api,
        authUrl: sim.ready.auth,
        gatewayUrl: sim.ready.gateway,
        grpcAddress: sim.ready.grpc,
        familyA: {
          clientId: BOT_CLIENT_ID,
          privateKeyFile: onboarded.privateKeyFile,
          participant: user.participant,
          refreshMarginSeconds: 30,
        },
      };
      familyA = createFamilyAClient(exchange, { logger });
    }
    logger.info(
      {
        gateway: sim.ready.gateway,
        grpc: plan.needsGrpc ? sim.ready.grpc : undefined,
        user: user.username,
        venue: plan.venue,
        streams: plan.streams,
      },
      'connected to the embedded exchange',
    );
    return { sim, instruments, accounts: user.accounts, gateway, familyA, grpcAddress: sim.ready.grpc, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

async function openEnvironment(config: TradebotConfig, plan: RunPlan, symbols: readonly string[], logger: Logger): Promise<Session> {
  const exchange = config.exchange;
  if (exchange === undefined) throw configError('no exchange section');
  const gatewayConfig = exchange.gateway;
  if (plan.needsGateway && gatewayConfig === undefined)
    throw configError('exchange.gateway is missing: give username, password (${ENV_VAR}) and, with MFA, mfaSecret');
  const familyA = createFamilyAClient(exchange, { logger });
  let gateway: GatewayClient | undefined;
  const close = () => closeAll([() => gateway?.close(), () => familyA.client.close()]);
  try {
    const instruments = await familyA.client.loadInstruments(symbols);
    if (plan.needsGateway && gatewayConfig !== undefined) {
      gateway = new GatewayClient({
        gatewayUrl: exchange.gatewayUrl,
        ...(exchange.privateLinkUrl === undefined ? {} : { privateLinkUrl: exchange.privateLinkUrl }),
        credentials: gatewayCredentials(gatewayConfig),
        instruments: instrumentCatalog(instruments),
        logger: logger.child({ component: 'gateway' }),
      });
      await gateway.login();
    }
    const accounts = gateway !== undefined ? (await gateway.getWhoAmI()).accounts : (await familyA.client.whoAmI()).accounts;
    logger.info(
      {
        gateway: gateway === undefined ? undefined : exchange.gatewayUrl,
        grpc: plan.needsGrpc ? exchange.grpcAddress : undefined,
        venue: plan.venue,
        streams: plan.streams,
      },
      'connected to the exchange',
    );
    return { sim: undefined, instruments, accounts, gateway, familyA, grpcAddress: exchange.grpcAddress, close };
  } catch (error) {
    await close().catch(() => undefined);
    throw error;
  }
}

function openSession(config: TradebotConfig, plan: RunPlan, symbols: readonly string[], logger: Logger): Promise<Session> {
  return plan.embedded ? openEmbedded(config, plan, logger) : openEnvironment(config, plan, symbols, logger);
}

/** The live runner's connection: the venue of `bot.venue`, each stream on its configured transport. */
export async function connectVenue(
  config: TradebotConfig,
  symbols: readonly string[],
  logger: Logger,
  options: { configFile?: string } = {},
): Promise<VenueConnection> {
  const plan = assertRunPlan(config, options.configFile);
  const session = await openSession(config, plan, symbols, logger);
  let closeGrpc: (() => Promise<void>) | undefined;
  try {
    const { gateway, familyA } = session;
    let grpc: ReturnType<typeof grpcStreamsOf> | undefined;
    if (plan.needsGrpc) {
      if (familyA === undefined || session.grpcAddress === undefined)
        throw configError('gRPC streams need exchange.grpcAddress and exchange.familyA');
      grpc = grpcStreamsOf(session.grpcAddress, familyA, session.instruments, logger);
      closeGrpc = grpc.close;
    }
    const streams = pickStreams(plan.streams, { ndjson: gateway === undefined ? undefined : ndjsonStreamsOf(gateway), grpc });
    let venue: Venue;
    if (plan.venue === 'familyA') {
      if (familyA === undefined) throw configError('bot.venue: familyA needs exchange.familyA');
      venue = new FamilyAVenue({ client: familyA.client, marketData: streams.marketData, orderUpdates: streams.orderUpdates });
    } else {
      if (gateway === undefined) throw configError('bot.venue: gateway needs exchange.gateway');
      venue = new GatewayVenue({
        client: gateway,
        instruments: session.instruments,
        marketData: streams.marketData,
        orderUpdates: streams.orderUpdates,
      });
    }
    return {
      venue,
      plan,
      instruments: session.instruments,
      accounts: session.accounts,
      sim: session.sim,
      close: () => closeAll([() => closeGrpc?.(), () => session.close()]),
    };
  } catch (error) {
    await closeAll([() => closeGrpc?.(), () => session.close()]).catch(() => undefined);
    throw error;
  }
}

/** A logged-in gateway client with the run's instruments and accounts (for tools that call the gateway directly). */
export async function connect(config: TradebotConfig, symbols: readonly string[], logger: Logger): Promise<LiveConnection> {
  if (config.exchange === undefined && config.sim === undefined) {
    throw configError('the config has neither an exchange section (an environment) nor a sim section (the embedded exchange); add one');
  }
  const plan: RunPlan = {
    venue: 'gateway',
    streams: { marketData: 'ndjson', orders: 'ndjson' },
    embedded: config.exchange === undefined,
    needsGateway: true,
    needsFamilyA: config.exchange !== undefined,
    needsGrpc: false,
  };
  if (config.exchange !== undefined && config.exchange.familyA === undefined) {
    throw configError(
      'exchange.familyA is missing: reference data (price scales, ticks) comes from the /v1 API; ' +
        'give clientId, privateKeyFile and participant',
    );
  }
  const session = await openSession(config, plan, symbols, logger);
  const client = session.gateway;
  if (client === undefined) {
    await session.close();
    throw configError('exchange.gateway is missing: give username, password (${ENV_VAR}) and, with MFA, mfaSecret');
  }
  return { client, instruments: session.instruments, accounts: session.accounts, sim: session.sim, close: () => session.close() };
}

/** A gateway login to the configured exchange (the embedded one, or `exchange`), for `tradebot exchange`. */
export interface GatewaySession {
  readonly gateway: GatewayClient;
  /** The accounts the logged-in user trades. */
  readonly accounts: readonly string[];
  close(): Promise<void>;
}

export async function openGatewaySession(
  config: TradebotConfig,
  logger: Logger,
  options: { configFile?: string } = {},
): Promise<GatewaySession> {
  const plan: RunPlan = { ...assertRunPlan(config, options.configFile), needsGateway: true };
  const session = await openSession(config, plan, [], logger);
  if (session.gateway === undefined) {
    await session.close();
    throw configError('exchange.gateway is missing: give username, password (${ENV_VAR}) and, with MFA, mfaSecret');
  }
  return { gateway: session.gateway, accounts: session.accounts, close: () => session.close() };
}
