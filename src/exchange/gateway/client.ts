/**
 * GatewayClient: the trading gateway (family B) client. It composes the transport (HttpTransport with a
 * keep-alive pool, 15 s per-call deadline and the private link; a client-side token bucket, default 80/s,
 * under the venue's 100/s per firm; retries for idempotent calls only), the session (login, MFA, refresh,
 * re-login, logout), the typed endpoint methods and the resilient streams, and exposes one method per
 * gateway endpoint. Prices and quantities are Decimal on both sides; the instrument catalog supplies the
 * scales. `close()` logs out (revoking the tokens) and releases the connections.
 *
 *   const client = new GatewayClient({ gatewayUrl, credentials, instruments: instrumentCatalog(refdata) });
 *   await client.login();
 *   const { orderId } = await client.insertOrder({ account, symbol, side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT',
 *     orderQty: new Decimal(5), price: new Decimal('0.55') });
 *   client.orderUpdates$().pipe(ofType('execution')).subscribe(...);
 */
import { asyncScheduler, lastValueFrom, timer } from 'rxjs';
import type { Observable, SchedulerLike } from 'rxjs';
import type { Logger } from 'pino';
import type {
  Balance,
  Order,
  OrderBook,
  PositionsResponse,
  SearchOrdersResponse,
  SearchTradesResponse,
  Trade,
  WhoAmI,
} from '../../domain/index.ts';
import { HttpTransport, TokenBucket, withRateLimit, withRetry } from '../transport/index.ts';
import type { RandomSource, RetryOptions, TokenBucketOptions, Transport } from '../transport/index.ts';
import { GatewayAuthApi } from './auth-api.ts';
import type { MfaConfirmation, MfaEnrollment, PasswordCheck, RegisterResult } from './auth-api.ts';
import { AuthedCaller } from './authed-caller.ts';
import type { RequestOptions } from './call.ts';
import type { InstrumentCatalog } from './catalog.ts';
import { GatewayLookupsApi } from './lookups-api.ts';
import type { BalanceInput, PositionsInput } from './lookups-api.ts';
import { defaultClordId } from './order-inputs.ts';
import type {
  CancelOrderInput,
  ClordIdFactory,
  CrossOrderInput,
  OpenOrdersInput,
  OrderRequestInput,
  ReplaceOrderInput,
  SearchOrdersInput,
  SearchTradesInput,
} from './order-inputs.ts';
import { GatewaySession } from './session.ts';
import type { GatewayCredentials, SessionInfo } from './session.ts';
import type { GatewayStreamOptions } from './stream-runner.ts';
import type { InstrumentStateStreamEvent, MarketDataEvent, OrderStreamEvent } from '../../domain/stream-events.ts';
import { GatewayStreams } from './streams.ts';
import type { InstrumentStateFilter, MarketDataFilter, OrderStreamFilter } from './streams.ts';
import type { CrossResult, InsertOrderResult, OrderIdsResult, ReplaceOrderResult } from './trading-api.ts';
import { GatewayTradingApi } from './trading-api.ts';

export interface GatewayClientOptions {
  /** `{gateway_url}`, e.g. `https://rest.dev.example.com`. */
  readonly gatewayUrl: string;
  /** `{private_link_url}`: connect here, sending `Host` = the host of `gatewayUrl`. */
  readonly privateLinkUrl?: string;
  readonly credentials: GatewayCredentials;
  /** Scales per symbol, to map Decimal prices and quantities to the wire and back. */
  readonly instruments: InstrumentCatalog;
  /** Per-call deadline, ms. Default 15 000 (the venue's recommendation). */
  readonly timeoutMs?: number;
  /** Extra trusted CA certificates (PEM) for the gateway's TLS. */
  readonly ca?: string | readonly string[];
  /** Client-side rate limit (default 80/s, burst 10), or a TokenBucket shared with other clients of the firm. */
  readonly rateLimit?: TokenBucket | TokenBucketOptions;
  /** Retry of idempotent calls (default 4 attempts, 200 ms .. 10 s backoff); false: never retry. */
  readonly retry?: Omit<RetryOptions, 'scheduler' | 'random'> | false;
  /**
   * Retry inserts, crosses and cancel-replaces too (they always carry a clord_id, generated before the first
   * attempt, so a repeat is recognisable by the venue). Default true; see trading-api.ts for the caveat.
   */
  readonly retryInserts?: boolean;
  /** Token refresh margin: min(refreshMarginMs, refreshMarginFraction x lifetime). Defaults 30 s and 0.1. */
  readonly refreshMarginMs?: number;
  readonly refreshMarginFraction?: number;
  readonly streams?: GatewayStreamOptions;
  /** Local clock for token expiry and TOTP codes, ms. Default: scheduler.now(). */
  readonly now?: () => number;
  /** Timers (deadlines, backoff, rate limit, stream watchdog). Default asyncScheduler. */
  readonly scheduler?: SchedulerLike;
  readonly random?: RandomSource;
  /** Makes client order ids when the caller gives none. Default: random UUIDs. */
  readonly newClordId?: ClordIdFactory;
  readonly logger?: Logger;
}

export class GatewayClient {
  /** Stateless auth calls (register another user, check a password) without the session. */
  readonly auth: GatewayAuthApi;
  readonly session: GatewaySession;
  private readonly http: HttpTransport;
  private readonly transport: Transport;
  private readonly trading: GatewayTradingApi;
  private readonly lookups: GatewayLookupsApi;
  private readonly streams: GatewayStreams;
  private readonly logger: Logger | undefined;

  constructor(options: GatewayClientOptions) {
    const scheduler = options.scheduler ?? asyncScheduler;
    const random = options.random ?? Math.random;
    this.logger = options.logger;
    this.http = new HttpTransport({
      baseUrl: options.gatewayUrl,
      ...(options.privateLinkUrl === undefined ? {} : { privateLinkUrl: options.privateLinkUrl }),
      timeoutMs: options.timeoutMs ?? 15_000,
      ...(options.ca === undefined ? {} : { ca: options.ca }),
      scheduler,
    });
    const bucket =
      options.rateLimit instanceof TokenBucket
        ? options.rateLimit
        : new TokenBucket({ ratePerSecond: 80, burst: 10, scheduler, ...options.rateLimit });
    const limited = withRateLimit(this.http, bucket);
    const ownsBucket = !(options.rateLimit instanceof TokenBucket);
    const retrying = options.retry === false ? limited : withRetry(limited, { ...options.retry, scheduler, random });
    this.transport = {
      request: (request) => retrying.request(request),
      close: async () => {
        if (ownsBucket) bucket.close();
        await this.http.close();
      },
    };
    this.auth = new GatewayAuthApi(this.transport);
    this.session = new GatewaySession({
      auth: this.auth,
      credentials: options.credentials,
      now: options.now ?? (() => scheduler.now()),
      wait: (ms) => lastValueFrom(timer(ms, scheduler), { defaultValue: 0 }).then(() => undefined),
      ...(options.refreshMarginMs === undefined ? {} : { refreshMarginMs: options.refreshMarginMs }),
      ...(options.refreshMarginFraction === undefined ? {} : { refreshMarginFraction: options.refreshMarginFraction }),
      ...(options.logger === undefined ? {} : { logger: options.logger }),
    });
    const caller = new AuthedCaller(this.transport, this.session);
    const newClordId = options.newClordId ?? defaultClordId;
    this.trading = new GatewayTradingApi(caller, options.instruments, newClordId, options.retryInserts ?? true);
    this.lookups = new GatewayLookupsApi(caller, options.instruments);
    this.streams = new GatewayStreams(
      {
        opener: this.http,
        tokens: this.session,
        acquire: () => bucket.acquire(),
        scheduler,
        random,
        options: options.streams ?? {},
        logger: options.logger,
        wake: this.session.logins$,
      },
      options.instruments,
    );
  }

  // --- auth (/auth/v1beta1) -------------------------------------------------------------------------------

  register(request: { token: string; password: string }, options?: RequestOptions): Promise<RegisterResult> {
    return this.auth.register(request, options);
  }
  checkPassword(request: { password: string; username?: string }, options?: RequestOptions): Promise<PasswordCheck> {
    return this.auth.checkPassword(request, options);
  }
  /** Logs in with the configured credentials (calls log in on demand anyway). */
  login(): Promise<void> {
    return this.session.login();
  }
  /** Refreshes the access token now. */
  refreshAccessToken(): Promise<void> {
    return this.session.refresh();
  }
  enrollMfa(): Promise<MfaEnrollment> {
    return this.session.enrollMfa();
  }
  confirmMfa(input: { secret?: string; otp?: string }): Promise<MfaConfirmation> {
    return this.session.confirmMfa(input);
  }
  changePassword(newPassword: string): Promise<void> {
    return this.session.changePassword(newPassword);
  }
  /** Revokes the tokens; the client cannot be used afterwards (except close()). */
  logout(): Promise<void> {
    return this.session.logout();
  }
  sessionInfo(): SessionInfo {
    return this.session.info();
  }

  // --- order entry (/api/v1beta1) ---------------------------------------------------------------------------

  insertOrder(input: OrderRequestInput, options?: RequestOptions): Promise<InsertOrderResult> {
    return this.trading.insertOrder(input, options);
  }
  insertOrderList(inputs: readonly OrderRequestInput[], options?: RequestOptions): Promise<OrderIdsResult> {
    return this.trading.insertOrderList(inputs, options);
  }
  previewOrder(input: OrderRequestInput, options?: RequestOptions): Promise<Order> {
    return this.trading.previewOrder(input, options);
  }
  cancelOrder(input: CancelOrderInput, options?: RequestOptions): Promise<void> {
    return this.trading.cancelOrder(input, options);
  }
  cancelOrderList(inputs: readonly CancelOrderInput[], options?: RequestOptions): Promise<void> {
    return this.trading.cancelOrderList(inputs, options);
  }
  cancelReplaceOrder(input: ReplaceOrderInput, options?: RequestOptions): Promise<ReplaceOrderResult> {
    return this.trading.cancelReplaceOrder(input, options);
  }
  cancelReplaceOrderList(inputs: readonly ReplaceOrderInput[], options?: RequestOptions): Promise<OrderIdsResult> {
    return this.trading.cancelReplaceOrderList(inputs, options);
  }
  insertOrderCross(input: CrossOrderInput, options?: RequestOptions): Promise<CrossResult> {
    return this.trading.insertOrderCross(input, options);
  }

  // --- lookups (recovery only; never poll) ------------------------------------------------------------------

  getOpenOrders(input?: OpenOrdersInput, options?: RequestOptions): Promise<readonly Order[]> {
    return this.lookups.getOpenOrders(input, options);
  }
  searchOrders(input?: SearchOrdersInput, options?: RequestOptions): Promise<SearchOrdersResponse> {
    return this.lookups.searchOrders(input, options);
  }
  iterateOrders(input?: SearchOrdersInput, options?: RequestOptions): AsyncGenerator<Order, void, undefined> {
    return this.lookups.iterateOrders(input, options);
  }
  searchTrades(input?: SearchTradesInput, options?: RequestOptions): Promise<SearchTradesResponse> {
    return this.lookups.searchTrades(input, options);
  }
  iterateTrades(input?: SearchTradesInput, options?: RequestOptions): AsyncGenerator<Trade, void, undefined> {
    return this.lookups.iterateTrades(input, options);
  }
  listAccountPositions(input: PositionsInput, options?: RequestOptions): Promise<PositionsResponse> {
    return this.lookups.listAccountPositions(input, options);
  }
  getAccountBalance(input: BalanceInput, options?: RequestOptions): Promise<Balance> {
    return this.lookups.getAccountBalance(input, options);
  }
  getWhoAmI(options?: RequestOptions): Promise<WhoAmI> {
    return this.lookups.getWhoAmI(options);
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

  /**
   * Logs out (best effort: a failure is logged, not thrown, unless `logout: false` skips it), then closes the
   * connections; open streams end with TRANSPORT_CLOSED. Idempotent.
   */
  async close(options: { logout?: boolean } = {}): Promise<void> {
    if (options.logout !== false) {
      try {
        await this.session.logout();
      } catch (error) {
        this.logger?.warn({ code: (error as { code?: unknown }).code }, 'gateway logout on close failed');
      }
    }
    this.session.discard();
    await this.transport.close();
  }
}
