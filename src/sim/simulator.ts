/**
 * Assembles the embedded exchange from a `sim` config: the shared ExchangeCore, the gateway (family B)
 * HTTP server, the family A API and token servers, the gRPC server, and synthetic market activity, all on
 * 127.0.0.1. `startSim` resolves once every server listens; `close()` stops them all. Used by
 * `tradebot sim`, by `tradebot run` (in-process) and by the tests.
 */
import type { Logger } from 'pino';
import { Server as GrpcServer, ServerCredentials } from '@grpc/grpc-js';
import type { SimConfig } from './config.ts';
import { ExchangeCore } from './exchange/exchange-core.ts';
import { startActivity, type ActivityDriver } from './activity/driver.ts';
import { TokenService, type SimClock } from './gateway/token-service.ts';
import { UserStore } from './gateway/user-store.ts';
import { startGatewayServer } from './gateway/gateway-server.ts';
import { startHttpServer, type RunningHttpServer } from './http/server.ts';
import { Router } from './http/router.ts';
import { gatewayErrorBody } from './http/errors.ts';
import { ACTIVITY_FIRM } from './activity/market-activity.ts';

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
  /** Fault injection: ends every open gateway stream from the server side. */
  dropStreams(): void;
  /** A one-time registration JWT for a configured user (what an account manager would hand out). */
  issueRegistrationToken(username: string): Promise<string>;
  close(): Promise<void>;
}

export interface StartSimOptions {
  logger: Logger;
  clock?: SimClock;
  /** false: activity is seeded but only steps when `activity.step()` is called (tests). */
  activityTimer?: boolean;
}

const wallClock: SimClock = { now: () => Date.now() };

export async function startSim(config: SimConfig, options: StartSimOptions): Promise<RunningSim> {
  const clock = options.clock ?? wallClock;
  const logger = options.logger;
  const core = new ExchangeCore({ clock, instruments: config.instruments, startingBalance: config.startingBalance, currency: config.currency });
  const users = await UserStore.create(config.users.map((u) => ({ ...u, password: u.password })));
  const gatewayTokens = new TokenService(clock, config.signingSecret);
  const closers: (() => Promise<void>)[] = [];
  try {
    const gateway = await startGatewayServer({ config, core, users, tokens: gatewayTokens, clock, logger: logger.child({ server: 'gateway' }) });
    closers.push(gateway.close);
    const api = await startPlaceholderServer(config.ports.api, logger);
    closers.push(api.close);
    const auth = await startPlaceholderServer(config.ports.auth, logger);
    closers.push(auth.close);
    const grpc = await startGrpcServer(config.ports.grpc);
    closers.push(grpc.close);
    const activity = config.activity.enabled ? startActivity(core, config.activity, logger.child({ component: 'activity' }), { timer: options.activityTimer !== false }) : undefined;
    if (activity) closers.push(async () => activity.stop());
    logger.info({ firm: ACTIVITY_FIRM, instruments: core.instruments().length, activity: config.activity.enabled }, 'simulator started');
    return {
      ready: { event: 'sim.ready', api: api.url, auth: auth.url, gateway: gateway.url, grpc: grpc.address },
      core,
      users,
      gatewayTokens,
      config,
      activity,
      dropStreams: () => gateway.streams.dropAll(),
      issueRegistrationToken: async (username) => {
        if (users.get(username) === undefined) throw new Error(`no user ${username} in sim.users`);
        return (await gatewayTokens.issue('registration', username, config.gateway.registrationTokenTtlSeconds)).token;
      },
      close: async () => {
        for (const close of closers.reverse()) await close();
        core.events$.complete();
      },
    };
  } catch (error) {
    for (const close of closers.reverse()) await close().catch(() => undefined);
    throw error;
  }
}

/** Family A servers arrive with the next issue; until then the ports answer health and NOT_FOUND. */
async function startPlaceholderServer(port: number, logger: Logger): Promise<RunningHttpServer> {
  const router = new Router().get('/v1/health', () => ({ body: { status: 'SERVING' } }));
  return startHttpServer({ router, port, logger, renderError: (error) => ({ status: error.httpStatus, body: gatewayErrorBody(error) }) });
}

async function startGrpcServer(port: number): Promise<{ address: string; close(): Promise<void> }> {
  const server = new GrpcServer();
  const bound = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (error, actual) => (error ? reject(error) : resolve(actual)));
  });
  return {
    address: `127.0.0.1:${bound}`,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
}
