/**
 * Assembles the embedded exchange from a `sim` config: the shared ExchangeCore, the gateway (family B)
 * HTTP server, the family A API and token servers, simulated KYC with webhooks, the gRPC server, and
 * synthetic market activity, all on 127.0.0.1. `startSim` resolves once every server listens; `close()`
 * stops them all. Used by `tradebot sim`, by `tradebot run` (in-process) and by the tests.
 * With `sim.stateFile` the exchange state is restored at start, written every `sim.stateIntervalSeconds`
 * and once more on close (src/sim/state); `faults` injects faults (src/sim/faults, `sim.faults`); `sim.grpc`
 * sets the gRPC server's limits.
 */
import { readFile } from 'node:fs/promises';
import type { Logger } from 'pino';
import { familyAVerifier, startGrpcServer, type GrpcServerLimits } from './grpc/index.ts';
import type { SimConfig } from './config.ts';
import { ExchangeCore } from './exchange/exchange-core.ts';
import { startActivity, type ActivityDriver } from './activity/driver.ts';
import { TokenService, type SimClock } from './gateway/token-service.ts';
import { UserStore } from './gateway/user-store.ts';
import { startGatewayServer } from './gateway/gateway-server.ts';
import { ACTIVITY_FIRM } from './activity/market-activity.ts';
import { ClientRegistry } from './familya/clients.ts';
import { AccessTokenService } from './familya/access-tokens.ts';
import { Directory, directoryAccountOpener } from './familya/directory.ts';
import { startFamilyAApi } from './familya/api-server.ts';
import { startTokenServer } from './familya/token-server.ts';
import { KycService } from './kyc/kyc-service.ts';
import { FirmRateLimiter } from './gateway/guard.ts';
import type { DeliveryStats } from './kyc/delivery-queue.ts';
import { TradebotError } from '../errors.ts';
import { FaultController, type SimFaults } from './faults/index.ts';
import { loadState, startStatePersister, type StatePersister } from './state/index.ts';

export interface SimReady {
  event: 'sim.ready';
  api: string;
  auth: string;
  gateway: string;
  grpc: string;
}

export interface RunningSim {
  ready: SimReady;
  core: ExchangeCore;
  users: UserStore;
  gatewayTokens: TokenService;
  config: SimConfig;
  activity: ActivityDriver | undefined;
  /** Family A: the onboarded API clients and the participants/accounts of each firm. */
  clients: ClientRegistry;
  directory: Directory;
  /** `{auth}/oauth/token`, the `aud` a client assertion must carry. */
  tokenEndpoint: string;
  /** Simulated KYC; with `kycTimer: false` nothing moves until `advance()` is called. */
  kyc: SimKycControl;
  /** Fault injection: ends every open gateway stream from the server side. */
  dropStreams(): void;
  /** NDJSON streams open on the gateway right now. */
  gatewayStreamCount(): number;
  /** Fault injection: dropped, stalled and garbled streams, failed, delayed and cut replies (src/sim/faults). */
  faults: SimFaults;
  /** A one-time registration JWT for a configured user (what an account manager would hand out). */
  issueRegistrationToken(username: string): Promise<string>;
  /**
   * Stops every server. With `sim.stateFile`, writes the state a last time after the servers stopped, unless
   * `writeState` is false (what a SIGKILL does: the file keeps the last periodic write).
   */
  close(options?: { writeState?: boolean }): Promise<void>;
}

export interface SimKycControl {
  /** Applies the KYC steps due on the sim clock and sends due webhook deliveries; resolves when all were tried. */
  advance(): Promise<void>;
  /** Sim time of the next due step or delivery; undefined when nothing is pending. */
  nextDueAt(): number | undefined;
  /** The firm's registered webhook URL. */
  webhookUrl(firm: string): string | undefined;
  readonly deliveryStats: Readonly<DeliveryStats>;
}

export interface StartSimOptions {
  logger: Logger;
  clock?: SimClock;
  /** false: activity is seeded but only steps when `activity.step()` is called (tests). */
  activityTimer?: boolean;
  /** false: KYC moves only when `kyc.advance()` is called (tests, with an injected clock). */
  kycTimer?: boolean;
}

/**
 * Wall time that never goes backwards: a step back of the system clock (NTP on a VM) must not give the
 * exchange's executions and book updates an earlier transact time than the ones before (clients order book
 * updates by it, see src/engine/books.ts).
 */
function monotonicWallClock(): SimClock {
  let last = 0;
  return { now: () => (last = Math.max(last, Date.now())) };
}

/** The exchange core (its state restored from sim.stateFile), users, tokens, clients, directory, KYC and faults. */
async function simServices(config: SimConfig, clock: SimClock, logger: Logger) {
  const core = new ExchangeCore({
    clock,
    instruments: config.instruments,
    startingBalance: config.startingBalance,
    currency: config.currency,
    maxOrderHistory: config.maxOrderHistory,
    maxTrades: config.maxTrades,
  });
  if (config.stateFile !== undefined) {
    const restored = await loadState(core, config.stateFile);
    if (restored !== undefined) logger.info({ file: config.stateFile, ...restored }, 'simulator state restored');
  }
  const users = await UserStore.create(config.users.map((u) => ({ ...u, password: u.password })));
  const gatewayTokens = new TokenService(clock, config.signingSecret);
  const clients = await ClientRegistry.load(config.clients);
  const directory = new Directory(config.users);
  const accessTokens = await AccessTokenService.create(clock);
  const kyc = new KycService({
    clock,
    settings: () => config.kyc,
    accounts: directoryAccountOpener(directory, (account) => void core.ledger.balance(account)),
    extraCa: await readExtraCa(config.kyc.extraCaFile),
    logger: logger.child({ component: 'kyc' }),
  });
  const faults = new FaultController(config.faults, logger.child({ component: 'faults' }));
  return { core, users, gatewayTokens, clients, directory, accessTokens, kyc, faults };
}

type SimServices = Awaited<ReturnType<typeof simServices>>;

/** Starts the gateway, the family A API and token servers and the gRPC server; each one's close goes into `closers`. */
async function startServers(
  config: SimConfig,
  options: StartSimOptions,
  clock: SimClock,
  services: SimServices,
  closers: (() => Promise<void>)[],
) {
  const { logger } = options;
  const { core, users, gatewayTokens, clients, directory, accessTokens, kyc, faults } = services;
  // one budget per firm across the doors: every gateway API call, /v1 and gRPC order entry
  const limiter = new FirmRateLimiter(clock, () => config.gateway.rateLimitPerSecond);
  const orderBudget = (firm: string) => limiter.take(firm);
  const gateway = await startGatewayServer({
    config,
    core,
    users,
    tokens: gatewayTokens,
    clock,
    logger: logger.child({ server: 'gateway' }),
    faults: faults.httpHooks,
    limiter,
  });
  closers.push(gateway.close);
  const api = await startFamilyAApi({
    config,
    core,
    clients,
    tokens: accessTokens,
    directory,
    kyc,
    logger: logger.child({ server: 'api' }),
    orderBudget,
  });
  closers.push(api.close);
  const auth = await startTokenServer({
    port: config.ports.auth,
    clients,
    tokens: accessTokens,
    apiUrl: api.url,
    clock,
    settings: () => config.familyA,
    logger: logger.child({ server: 'auth' }),
  });
  closers.push(auth.close);
  accessTokens.bind(auth.url, api.url);
  if (options.kycTimer !== false) kyc.startTimer();
  const grpc = await startGrpcServer({
    core,
    port: config.ports.grpc,
    verifyToken: familyAVerifier({ tokens: accessTokens, clients, directory }),
    logger: logger.child({ server: 'grpc' }),
    limits: grpcLimits(config),
    wrapStream: faults.wrapGrpcStream,
    orderBudget,
  });
  closers.push(grpc.close);
  return { gateway, api, auth, grpc };
}

/** The running sim's handle: its servers' addresses, its parts, and `close()` (the closers, last first, then the state). */
function runningSim(
  config: SimConfig,
  services: SimServices,
  servers: Awaited<ReturnType<typeof startServers>>,
  activity: ActivityDriver | undefined,
  closers: (() => Promise<void>)[],
  persister: StatePersister | undefined,
): RunningSim {
  const { core, users, gatewayTokens, clients, directory, kyc, faults } = services;
  const { gateway, api, auth, grpc } = servers;
  return {
    ready: { event: 'sim.ready', api: api.url, auth: auth.url, gateway: gateway.url, grpc: grpc.address },
    core,
    users,
    gatewayTokens,
    config,
    activity,
    clients,
    directory,
    tokenEndpoint: auth.tokenEndpoint,
    kyc: {
      advance: () => kyc.advance(),
      nextDueAt: () => kyc.nextDueAt(),
      webhookUrl: (firm) => kyc.webhookUrl(firm),
      get deliveryStats() {
        return kyc.deliveryStats;
      },
    },
    dropStreams: () => faults.dropStreams(),
    gatewayStreamCount: () => gateway.streams.count,
    faults,
    issueRegistrationToken: async (username) => {
      if (users.get(username) === undefined) throw new Error(`no user ${username} in sim.users`);
      return (await gatewayTokens.issue('registration', username, config.gateway.registrationTokenTtlSeconds)).token;
    },
    close: async (options = {}) => {
      for (const close of closers.reverse()) await close();
      // after the servers stopped, so the file holds every change a client was told about
      await persister?.stop({ save: options.writeState !== false });
      core.events$.complete();
    },
  };
}

export async function startSim(config: SimConfig, options: StartSimOptions): Promise<RunningSim> {
  const clock = options.clock ?? monotonicWallClock();
  const logger = options.logger;
  const services = await simServices(config, clock, logger);
  const { core, kyc, faults } = services;
  const closers: (() => Promise<void>)[] = [() => kyc.close(), async () => faults.stop()];
  let persister: StatePersister | undefined;
  try {
    const servers = await startServers(config, options, clock, services, closers);
    faults.start(() => {
      servers.gateway.streams.dropAll();
      servers.grpc.dropAll();
    });
    const activity = config.activity.enabled
      ? startActivity(core, config.activity, logger.child({ component: 'activity' }), { timer: options.activityTimer !== false })
      : undefined;
    if (activity) closers.push(async () => activity.stop());
    if (config.stateFile !== undefined) {
      persister = startStatePersister(core, {
        file: config.stateFile,
        intervalMs: config.stateIntervalSeconds * 1000,
        logger: logger.child({ component: 'state' }),
      });
    }
    logger.info({ firm: ACTIVITY_FIRM, instruments: core.instruments().length, activity: config.activity.enabled }, 'simulator started');
    return runningSim(config, services, servers, activity, closers, persister);
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    await persister?.stop({ save: false }).catch(() => undefined);
    throw error;
  }
}

/** `sim.grpc` as the gRPC server's limits (heartbeats default to the gateway's). */
function grpcLimits(config: SimConfig): GrpcServerLimits {
  const { heartbeatSeconds, ...limits } = config.grpc;
  return { ...limits, heartbeatMs: (heartbeatSeconds ?? config.gateway.heartbeatSeconds) * 1000 };
}

async function readExtraCa(file: string | undefined): Promise<string | undefined> {
  if (file === undefined) return undefined;
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    throw new TradebotError('SIM_KYC_CA_UNREADABLE', `sim.kyc.extraCaFile: cannot read ${file}; point it at a PEM CA certificate`, {
      kind: 'config',
      cause: error,
    });
  }
}
