/**
 * GrpcExchangeClient: the exchange's gRPC services over one channel. Streams are resilient Observables
 * emitting the same events as the gateway client's streams (reconnect with backoff, resubscription,
 * resume tokens, silence watchdog, token refresh on UNAUTHENTICATED, deduplication); unary calls take the
 * gateway client's inputs and return its result types. Prices and quantities are Decimal on both sides;
 * the instrument catalog supplies the scales (`listInstruments()` needs none: instruments carry their own).
 *
 *   const client = new GrpcExchangeClient({ address, getToken: (force) => tokens.accessToken(force), instruments });
 *   client.marketData$({ symbols: ['RAIN-NYC'] }).subscribe(...);
 *   await client.insertOrder({ account, symbol, side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', orderQty, price });
 */
import { asyncScheduler } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Logger } from 'pino';
import type { ChannelCredentials, ChannelOptions } from '@grpc/grpc-js';
import type { ListInstrumentsResponse, Order, OrderBook, SearchTradesResponse } from '../../domain/index.ts';
import type { RandomSource } from '../transport/index.ts';
import type { InstrumentCatalog } from '../gateway/catalog.ts';
import {
  type CancelOrderInput,
  type ClordIdFactory,
  type OpenOrdersInput,
  type OrderRequestInput,
  type ReplaceOrderInput,
  type SearchTradesInput,
  defaultClordId,
} from '../gateway/order-inputs.ts';
import type { InstrumentStateFilter, MarketDataFilter, OrderStreamFilter } from '../gateway/streams.ts';
import type { InsertOrderResult, OrderIdsResult, ReplaceOrderResult } from '../gateway/trading-api.ts';
import type { InstrumentStateStreamEvent, MarketDataEvent, OrderStreamEvent } from '../../domain/stream-events.ts';
import type { DropCopyEvent, PositionStreamEvent, TradeCaptureStreamEvent } from './stream-types.ts';
import { GrpcChannel } from './channel.ts';
import { GrpcClientErrorCode, GrpcError } from './errors.ts';
import { GrpcResumableStreams, type ResumableFilter } from './resumable.ts';
import type { GrpcStreamOptions, TokenSource } from './stream-runner.ts';
import { GrpcStreams, type PositionFilter } from './streams.ts';
import { GrpcTradingApi, type ListInstrumentsInput } from './trading.ts';

export interface GrpcExchangeClientOptions {
  /** `host:port` of the exchange's gRPC endpoint. */
  readonly address: string;
  /** Family A access token; `forceRefresh` after UNAUTHENTICATED (e.g. FamilyATokenManager). */
  readonly getToken: TokenSource;
  /** Scales per symbol, to map Decimal prices and quantities to the wire and back. */
  readonly instruments: InstrumentCatalog;
  /** Default: insecure (the simulator). */
  readonly credentials?: ChannelCredentials;
  readonly channelOptions?: ChannelOptions;
  /** Per-call deadline of unary calls, ms. Default 15 000. */
  readonly deadlineMs?: number;
  readonly streams?: GrpcStreamOptions;
  /** Timers (backoff, silence watchdog). Default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  readonly random?: RandomSource;
  readonly newClordId?: ClordIdFactory;
  readonly logger?: Logger;
  /** Emits when a token was obtained (the family A TokenManager's `tokens$`): streams waiting out a backoff reconnect sooner. */
  readonly wake?: Observable<unknown>;
}

export class GrpcExchangeClient {
  private readonly channel: GrpcChannel;
  private readonly streams: GrpcStreams;
  private readonly resumable: GrpcResumableStreams;
  private readonly trading: GrpcTradingApi;

  constructor(options: GrpcExchangeClientOptions) {
    const deadlineMs = options.deadlineMs ?? 15_000;
    if (!(Number.isFinite(deadlineMs) && deadlineMs > 0)) {
      throw new GrpcError(GrpcClientErrorCode.InvalidOptions, `deadlineMs must be a positive number of milliseconds (got ${deadlineMs})`, {
        kind: 'config',
      });
    }
    this.channel = new GrpcChannel({
      address: options.address,
      ...(options.credentials === undefined ? {} : { credentials: options.credentials }),
      ...(options.channelOptions === undefined ? {} : { channelOptions: options.channelOptions }),
    });
    const deps = {
      channel: this.channel,
      getToken: options.getToken,
      scheduler: options.scheduler ?? asyncScheduler,
      random: options.random ?? Math.random,
      options: options.streams ?? {},
      logger: options.logger,
      ...(options.wake === undefined ? {} : { wake: options.wake }),
    };
    this.streams = new GrpcStreams(deps, options.instruments);
    this.resumable = new GrpcResumableStreams(deps, options.instruments);
    this.trading = new GrpcTradingApi({
      channel: this.channel,
      getToken: options.getToken,
      catalog: options.instruments,
      newClordId: options.newClordId ?? defaultClordId,
      deadlineMs,
    });
  }

  // --- streams ------------------------------------------------------------------------------------------------

  orderUpdates$(filter?: OrderStreamFilter): Observable<OrderStreamEvent> {
    return this.streams.orderUpdates$(filter);
  }
  orderSnapshot(filter?: OrderStreamFilter): Promise<readonly Order[]> {
    return this.streams.orderSnapshot(filter);
  }
  marketData$(filter: MarketDataFilter): Observable<MarketDataEvent> {
    return this.streams.marketData$(filter);
  }
  marketDataSnapshot(filter: MarketDataFilter): Promise<ReadonlyMap<string, OrderBook>> {
    return this.streams.marketDataSnapshot(filter);
  }
  instrumentStates$(filter?: InstrumentStateFilter): Observable<InstrumentStateStreamEvent> {
    return this.streams.instrumentStates$(filter);
  }
  positions$(filter?: PositionFilter): Observable<PositionStreamEvent> {
    return this.streams.positions$(filter);
  }
  dropCopy$(filter?: ResumableFilter): Observable<DropCopyEvent> {
    return this.resumable.dropCopy$(filter);
  }
  tradeCaptureReports$(filter?: ResumableFilter): Observable<TradeCaptureStreamEvent> {
    return this.resumable.tradeCaptureReports$(filter);
  }

  // --- unary --------------------------------------------------------------------------------------------------

  insertOrder(input: OrderRequestInput): Promise<InsertOrderResult> {
    return this.trading.insertOrder(input);
  }
  insertOrderList(inputs: readonly OrderRequestInput[]): Promise<OrderIdsResult> {
    return this.trading.insertOrderList(inputs);
  }
  previewOrder(input: OrderRequestInput): Promise<Order> {
    return this.trading.previewOrder(input);
  }
  cancelOrder(input: CancelOrderInput): Promise<void> {
    return this.trading.cancelOrder(input);
  }
  cancelOrderList(inputs: readonly CancelOrderInput[]): Promise<void> {
    return this.trading.cancelOrderList(inputs);
  }
  cancelReplaceOrder(input: ReplaceOrderInput): Promise<ReplaceOrderResult> {
    return this.trading.cancelReplaceOrder(input);
  }
  getOpenOrders(input?: OpenOrdersInput): Promise<readonly Order[]> {
    return this.trading.getOpenOrders(input);
  }
  listInstruments(input?: ListInstrumentsInput): Promise<ListInstrumentsResponse> {
    return this.trading.listInstruments(input);
  }
  searchTrades(input?: SearchTradesInput): Promise<SearchTradesResponse> {
    return this.trading.searchTrades(input);
  }

  /** Closes the channel; open streams end (they do not reconnect: GRPC_CLOSED is fatal). Idempotent. */
  close(): void {
    this.channel.close();
  }
}
