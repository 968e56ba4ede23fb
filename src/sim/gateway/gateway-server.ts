/**
 * The simulator's trading gateway (family B) HTTP server: auth routes, order entry, lookups and NDJSON
 * streams behind the bare-token guard and the per-firm rate limit, with errors in the gateway's
 * `{code, message, details}` shape. Requests through a private link (any `Host`, e.g. the configured
 * gateway host) are served the same. Fault injection (src/sim/faults) hooks in through `faults`.
 */
import type { Logger } from 'pino';
import { Router, type RequestContext } from '../http/router.ts';
import { startHttpServer, type HttpFaultHooks } from '../http/server.ts';
import { gatewayErrorBody } from '../http/errors.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import type { Caller } from '../exchange/commands.ts';
import type { SimConfig } from '../config.ts';
import type { TokenService, SimClock } from './token-service.ts';
import type { UserStore } from './user-store.ts';
import { registerGatewayAuthRoutes } from './auth-routes.ts';
import { registerGatewayTradingRoutes } from './trading-routes.ts';
import { registerGatewayLookupRoutes } from './lookup-routes.ts';
import { registerGatewayStreams, StreamRegistry } from './streams.ts';
import { authenticateGateway, FirmRateLimiter } from './guard.ts';

export interface GatewayServerOptions {
  config: SimConfig;
  core: ExchangeCore;
  users: UserStore;
  tokens: TokenService;
  clock: SimClock;
  logger: Logger;
  faults?: HttpFaultHooks;
  /** The per-firm budget, shared with /v1 and gRPC order entry (startSim); default a budget of its own. */
  limiter?: FirmRateLimiter;
}

export interface RunningGateway {
  url: string;
  streams: StreamRegistry;
  close(): Promise<void>;
}

export async function startGatewayServer(options: GatewayServerOptions): Promise<RunningGateway> {
  const { config, core, users, tokens, clock } = options;
  const router = new Router();
  const limiter = options.limiter ?? new FirmRateLimiter(clock, () => config.gateway.rateLimitPerSecond);
  const streams = new StreamRegistry(() => config.gateway.maxStreamsPerFirm);
  const callers = new WeakMap<RequestContext, Promise<Caller>>();
  const callerOf = (context: RequestContext): Promise<Caller> => {
    let caller = callers.get(context);
    if (caller === undefined) {
      caller = authenticateGateway(context, tokens, users).then((user) => {
        limiter.take(user.firm);
        return { participant: user.participant, accounts: user.accounts };
      });
      callers.set(context, caller);
    }
    return caller;
  };
  registerGatewayAuthRoutes(router, { users, tokens, clock, settings: () => config.gateway });
  registerGatewayTradingRoutes(router, core, callerOf);
  registerGatewayLookupRoutes(router, core, callerOf, {
    maxPageSize: config.gateway.maxPageSize,
    whoAmI: (caller) => ({ username: users.all().find((u) => u.participant === caller.participant)?.username ?? '' }),
  });
  registerGatewayStreams(router, core, callerOf, { heartbeatMs: () => config.gateway.heartbeatSeconds * 1000 }, streams);
  router.post('/sim/v1/registration_token', async (context) => {
    const body = await context.body();
    const username = typeof body['username'] === 'string' ? body['username'] : '';
    if (users.get(username) === undefined)
      return { status: 404, body: { code: 5, message: 'NOT_FOUND', details: `no user ${username} in sim.users` } };
    const issued = await tokens.issue('registration', username, config.gateway.registrationTokenTtlSeconds);
    return { body: { token: issued.token, expirationTime: issued.expiresAt.toISOString() } };
  });
  const server = await startHttpServer({
    router,
    port: config.ports.gateway,
    logger: options.logger,
    maxStreamBufferBytes: config.gateway.maxStreamBufferBytes,
    renderError: (error) => ({ status: error.httpStatus, body: gatewayErrorBody(error), headers: error.headers }),
    before: (context) => {
      if (context.path.startsWith('/auth/')) limiter.take(`address:${context.remoteAddress}`);
    },
    ...(options.faults === undefined ? {} : { faults: options.faults }),
  });
  return { url: server.url, streams, close: server.close };
}
