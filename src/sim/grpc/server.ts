/**
 * The simulator's gRPC server: every service of proto/ (OrderEntryAPI, MarketDataSubscriptionAPI,
 * PositionAPI, DropCopyAPI, RefDataAPI, ReportAPI) over one ExchangeCore, on loopback without TLS, with
 * family A bearer-token authentication (an injected verifier), scopes, a per-firm stream limit and a
 * replay journal for the resumable streams. `dropAll()` ends every open stream with UNAVAILABLE (fault
 * injection); `close()` drops the streams and shuts the server down.
 *
 *   const grpc = await startGrpcServer({ core, port: 0, verifyToken, logger });
 *   grpc.address; // "127.0.0.1:50123"
 */
import type { Logger } from 'pino';
import { Server, ServerCredentials } from '@grpc/grpc-js';
import type { UntypedServiceImplementation } from '@grpc/grpc-js';
import { TradebotError } from '../../errors.ts';
import { MARKET_DATA_MAX_SYMBOLS } from '../../domain/limits.ts';
import { exchangeProtocol, methodRef } from '../../exchange/grpc/protocol/index.ts';
import type { MethodName, ServiceName } from '../../exchange/grpc/protocol/index.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import type { GrpcTokenVerifier } from './auth.ts';
import { type CallDeps, type StreamHandler, type StreamSink, type UnaryHandler, streamMethod, unaryMethod } from './calls.ts';
import type { ServiceContext } from './context.ts';
import { dropCopyHandlers } from './drop-copy.ts';
import { Journal } from './journal.ts';
import { marketDataHandler } from './market-data.ts';
import { orderEntryHandlers } from './order-entry.ts';
import { orderStreamHandler } from './order-stream.ts';
import { positionStreamHandler } from './positions.ts';
import { refDataHandlers, reportHandlers } from './refdata-reports.ts';
import { StreamRegistry } from './stream-registry.ts';

export interface GrpcServerLimits {
  /** Concurrent streams per firm; more are RESOURCE_EXHAUSTED. Default 20. */
  readonly maxStreamsPerFirm?: number;
  /** Heartbeat interval of idle streams, ms. Default 10 000. */
  readonly heartbeatMs?: number;
  /** Symbols per market data stream; more are INVALID_ARGUMENT. Default 1000. */
  readonly maxSymbolsPerStream?: number;
  /** Executions and trades kept for resuming drop copy / trade capture streams. Default 10 000. */
  readonly replayBufferSize?: number;
  /** Messages waiting for a slow client before its stream is cut (RESOURCE_EXHAUSTED). Default 100 000. */
  readonly maxQueuedMessages?: number;
  /** Largest SearchTrades page. Default 1000. */
  readonly maxPageSize?: number;
}

export interface GrpcServerOptions {
  readonly core: ExchangeCore;
  /** 0 picks a free port. */
  readonly port: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  readonly verifyToken: GrpcTokenVerifier;
  readonly logger: Logger;
  readonly limits?: GrpcServerLimits;
  /** Fault injection (src/sim/faults): wraps every server stream's sink. */
  readonly wrapStream?: (sink: StreamSink, method: string) => StreamSink;
  /**
   * Spends one unit of a firm's order-entry budget (shared with the gateway and /v1) or throws RESOURCE_EXHAUSTED;
   * called by every OrderEntryAPI unary method but GetOpenOrders. Default: no budget.
   */
  readonly orderBudget?: (firm: string) => void;
}

export interface RunningGrpcServer {
  /** `host:port` to dial. */
  readonly address: string;
  readonly port: number;
  /** Ends every open stream with UNAVAILABLE, as a dropped connection would. */
  dropAll(): void;
  /** Open streams of `firm`, or of all firms. */
  openStreams(firm?: string): number;
  close(): Promise<void>;
}

type Implementation<S extends ServiceName, H> = { readonly [M in MethodName<S>]: H };

function resolveLimits(limits: GrpcServerLimits): Required<GrpcServerLimits> {
  const resolved = {
    maxStreamsPerFirm: limits.maxStreamsPerFirm ?? 20,
    heartbeatMs: limits.heartbeatMs ?? 10_000,
    maxSymbolsPerStream: limits.maxSymbolsPerStream ?? MARKET_DATA_MAX_SYMBOLS,
    replayBufferSize: limits.replayBufferSize ?? 10_000,
    maxQueuedMessages: limits.maxQueuedMessages ?? 100_000,
    maxPageSize: limits.maxPageSize ?? 1000,
  };
  const problems = Object.entries(resolved)
    .filter(([name, value]) =>
      name === 'heartbeatMs' ? !(Number.isFinite(value) && value > 0) : !Number.isSafeInteger(value) || value < 1,
    )
    .map(
      ([name, value]) =>
        `limits.${name} must be ${name === 'heartbeatMs' ? 'a number of milliseconds > 0' : 'a whole number >= 1'} (got ${value})`,
    );
  if (problems.length > 0) throw new TradebotError('GRPC_SERVER_INVALID_OPTIONS', problems.join('; '), { kind: 'config' });
  return resolved;
}

export async function startGrpcServer(options: GrpcServerOptions): Promise<RunningGrpcServer> {
  const limits = resolveLimits(options.limits ?? {});
  const protocol = exchangeProtocol();
  const { core, logger } = options;
  const registry = new StreamRegistry(limits.maxStreamsPerFirm);
  const journal = new Journal(core, limits.replayBufferSize);
  const ctx: ServiceContext = {
    core,
    scales: (symbol) => core.instrument(symbol)?.scales,
    journal,
    heartbeatMs: limits.heartbeatMs,
    maxSymbolsPerStream: limits.maxSymbolsPerStream,
    maxPageSize: limits.maxPageSize,
  };
  const deps: CallDeps = {
    verifyToken: options.verifyToken,
    registry,
    logger,
    maxQueuedMessages: limits.maxQueuedMessages,
    wrapStream: options.wrapStream,
  };
  const unary = <S extends ServiceName>(service: S, method: MethodName<S>, handler: UnaryHandler) =>
    unaryMethod(deps, methodRef(service, method), handler);
  const stream = <S extends ServiceName>(service: S, method: MethodName<S>, handler: StreamHandler) =>
    streamMethod(deps, methodRef(service, method), handler);

  const budget = options.orderBudget;
  const handlers = orderEntryHandlers(ctx);
  const charged =
    (handler: UnaryHandler): UnaryHandler =>
    (raw, caller) => {
      budget?.(caller.firm);
      return handler(raw, caller);
    };
  const orders = {
    ...handlers,
    InsertOrder: charged(handlers.InsertOrder),
    InsertOrderList: charged(handlers.InsertOrderList),
    PreviewOrder: charged(handlers.PreviewOrder),
    CancelOrder: charged(handlers.CancelOrder),
    CancelOrderList: charged(handlers.CancelOrderList),
    CancelReplaceOrder: charged(handlers.CancelReplaceOrder),
  };
  const dropCopy = dropCopyHandlers(ctx);
  const implementations: { [S in ServiceName]: Implementation<S, UntypedServiceImplementation[string]> } = {
    OrderEntryAPI: {
      InsertOrder: unary('OrderEntryAPI', 'InsertOrder', orders.InsertOrder),
      InsertOrderList: unary('OrderEntryAPI', 'InsertOrderList', orders.InsertOrderList),
      PreviewOrder: unary('OrderEntryAPI', 'PreviewOrder', orders.PreviewOrder),
      CancelOrder: unary('OrderEntryAPI', 'CancelOrder', orders.CancelOrder),
      CancelOrderList: unary('OrderEntryAPI', 'CancelOrderList', orders.CancelOrderList),
      CancelReplaceOrder: unary('OrderEntryAPI', 'CancelReplaceOrder', orders.CancelReplaceOrder),
      GetOpenOrders: unary('OrderEntryAPI', 'GetOpenOrders', orders.GetOpenOrders),
      CreateOrderSubscription: stream('OrderEntryAPI', 'CreateOrderSubscription', orderStreamHandler(ctx)),
    },
    MarketDataSubscriptionAPI: {
      CreateMarketDataSubscription: stream('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription', marketDataHandler(ctx)),
    },
    PositionAPI: {
      CreatePositionSubscription: stream('PositionAPI', 'CreatePositionSubscription', positionStreamHandler(ctx)),
    },
    DropCopyAPI: {
      CreateDropCopySubscription: stream('DropCopyAPI', 'CreateDropCopySubscription', dropCopy.CreateDropCopySubscription),
      CreateTradeCaptureReportSubscription: stream(
        'DropCopyAPI',
        'CreateTradeCaptureReportSubscription',
        dropCopy.CreateTradeCaptureReportSubscription,
      ),
      CreateInstrumentStateChangeSubscription: stream(
        'DropCopyAPI',
        'CreateInstrumentStateChangeSubscription',
        dropCopy.CreateInstrumentStateChangeSubscription,
      ),
    },
    RefDataAPI: { ListInstruments: unary('RefDataAPI', 'ListInstruments', refDataHandlers(ctx).ListInstruments) },
    ReportAPI: { SearchTrades: unary('ReportAPI', 'SearchTrades', reportHandlers(ctx).SearchTrades) },
  };

  const server = new Server();
  for (const service of Object.keys(implementations) as ServiceName[]) {
    server.addService(protocol.service(service), implementations[service] as UntypedServiceImplementation);
  }
  const host = options.host ?? '127.0.0.1';
  let port: number;
  try {
    port = await new Promise<number>((resolve, reject) => {
      server.bindAsync(`${host}:${options.port}`, ServerCredentials.createInsecure(), (error, bound) =>
        error ? reject(error) : resolve(bound),
      );
    });
  } catch (error) {
    journal.close();
    throw new TradebotError(
      'GRPC_SERVER_BIND_FAILED',
      `cannot listen on ${host}:${options.port}: ${error instanceof Error ? error.message : String(error)}`,
      { kind: 'config', cause: error },
    );
  }
  logger.info({ address: `${host}:${port}` }, 'grpc server listening');
  let closing: Promise<void> | undefined;
  return {
    address: `${host}:${port}`,
    port,
    dropAll: () => registry.dropAll(),
    openStreams: (firm) => registry.count(firm),
    close() {
      closing ??= new Promise<void>((resolve) => {
        registry.dropAll();
        journal.close();
        const force = setTimeout(() => server.forceShutdown(), 2_000);
        force.unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      return closing;
    },
  };
}
