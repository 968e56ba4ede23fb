/**
 * The simulator's family A `/v1` API server (`{api}`): every endpoint of the spec and the notes behind
 * bearer-token auth, scopes, the client allowlist and `x-participant-id`, over the ExchangeCore the
 * gateway also serves (one exchange, two doors). Errors are `{"error": {code, status, message, details}}`.
 * `GET /v1/health` needs no token.
 */
import type { Logger } from 'pino';
import { Router } from '../http/router.ts';
import { startHttpServer } from '../http/server.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import type { SimConfig } from '../config.ts';
import type { KycService } from '../kyc/kyc-service.ts';
import { familyAErrorBody } from './errors.ts';
import type { ClientRegistry } from './clients.ts';
import type { AccessTokenService } from './access-tokens.ts';
import type { Directory } from './directory.ts';
import { ApiRoutes } from './api-routes.ts';
import { registerMarketRoutes } from './routes/market.ts';
import { registerReportRoutes } from './routes/reports.ts';
import { registerTradingRoutes } from './routes/trading.ts';
import { registerPositionRoutes } from './routes/positions.ts';
import { registerRefdataRoutes } from './routes/refdata.ts';
import { registerAccountRoutes } from './routes/accounts.ts';
import { registerFundingRoutes } from './routes/funding.ts';
import { registerKycRoutes } from './routes/kyc.ts';

export interface FamilyAApiOptions {
  config: SimConfig;
  core: ExchangeCore;
  clients: ClientRegistry;
  tokens: AccessTokenService;
  directory: Directory;
  kyc: KycService;
  logger: Logger;
  /** Spends one unit of a firm's order-entry budget (shared with the other doors) or throws RESOURCE_EXHAUSTED. */
  orderBudget?: (firm: string) => void;
}

export interface RunningFamilyAApi {
  url: string;
  close(): Promise<void>;
}

export async function startFamilyAApi(options: FamilyAApiOptions): Promise<RunningFamilyAApi> {
  const { config, core, directory, kyc } = options;
  const router = new Router().get('/v1/health', () => ({ body: { status: 'SERVING' } }));
  const routes = new ApiRoutes(router, { tokens: options.tokens, clients: options.clients, directory });
  const maxPageSize = () => config.familyA.maxPageSize;
  registerMarketRoutes(routes, core);
  registerReportRoutes(routes, core, { maxPageSize });
  registerTradingRoutes(routes, core, options.orderBudget);
  registerPositionRoutes(routes, core);
  registerRefdataRoutes(routes, core);
  registerAccountRoutes(routes, { core, directory, maxPageSize, kycStatusOf: (firm, externalId) => kyc.status(firm, externalId)?.status });
  registerFundingRoutes(routes, core);
  registerKycRoutes(routes, core, kyc);
  const server = await startHttpServer({
    router,
    port: config.ports.api,
    logger: options.logger,
    renderError: (error) => ({ status: error.httpStatus, body: familyAErrorBody(error), headers: error.headers }),
  });
  return { url: server.url, close: server.close };
}
