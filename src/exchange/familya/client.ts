/**
 * FamilyAClient: a typed method for every `/v1` endpoint of family A, over a composed transport
 * (`withRetry(withRateLimit(HttpTransport))`, see create-client.ts) and a token source (TokenManager).
 * Each method lives in its endpoint module (market, trading, account, refdata, kyc); this class binds them to
 * one context: the caller (Bearer token, x-participant-id on trading calls, one retry after a 401, typed
 * errors) and the instrument catalog (scales for Decimal prices, loaded from reference data on demand).
 *
 *   const client = createFamilyAClient(config.exchange, { logger });
 *   const book = await client.orderbook('RAIN-NYC-2026-12-01', 5);      // Decimal prices
 *   const { orderId } = await client.insertOrder({ symbol, side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT',
 *                                                   orderQty: new Decimal(1), price: new Decimal('0.42') });
 */
import type { Transport } from '../transport/index.ts';
import * as account from './account-api.ts';
import { FamilyACaller } from './call.ts';
import type { RequestOptions, TokenSource } from './call.ts';
import type { ApiContext } from './context.ts';
import { InstrumentResolver, MapInstrumentCatalog } from './instruments.ts';
import type { InstrumentCatalog } from './instruments.ts';
import * as kyc from './kyc-api.ts';
import * as market from './market-api.ts';
import * as refdata from './refdata-api.ts';
import * as trading from './trading-api.ts';

export interface FamilyAClientOptions {
  /** Transport whose base URL is the API base `{base_url}` (already rate limited and retried). */
  readonly transport: Transport;
  readonly tokens: TokenSource;
  /** `firms/<firm>/users/<user>` for `x-participant-id`; trading calls fail without it. */
  readonly participant?: string;
  /** Where scales come from. Default: an empty MapInstrumentCatalog filled from reference data. */
  readonly catalog?: InstrumentCatalog;
  /** Fetch unknown symbols' instruments on demand (needs read:instruments). Default true. */
  readonly autoLoadInstruments?: boolean;
  /** Extra cleanup on close (e.g. the token endpoint's transport). */
  readonly onClose?: () => Promise<void>;
}

type Rest<F> = F extends (ctx: ApiContext, ...args: infer A) => infer R ? (...args: A) => R : never;

export class FamilyAClient {
  readonly catalog: InstrumentCatalog;
  private readonly ctx: ApiContext;
  private readonly options: FamilyAClientOptions;

  constructor(options: FamilyAClientOptions) {
    this.options = options;
    this.catalog = options.catalog ?? new MapInstrumentCatalog();
    const caller = new FamilyACaller(options.transport, options.tokens, options.participant);
    const loader =
      options.autoLoadInstruments === false ? undefined : (symbols: readonly string[]) => refdata.loadInstruments(this.ctx, symbols);
    this.ctx = { caller, instruments: new InstrumentResolver(this.catalog, loader) };
  }

  private bind<F extends (ctx: ApiContext, ...args: never[]) => unknown>(fn: F): Rest<F> {
    return ((...args: never[]) => fn(this.ctx, ...args)) as Rest<F>;
  }

  // Market data and reports.
  readonly orderbook = this.bind(market.orderbook);
  readonly bbo = this.bind(market.bbo);
  readonly searchTrades = this.bind(market.searchTrades);
  readonly searchTradePages = this.bind(market.searchTradePages);
  readonly allTrades = this.bind(market.allTrades);
  readonly tradeStats = this.bind(market.tradeStats);
  readonly health = this.bind(market.health);

  // Order entry and order reports.
  readonly insertOrder = this.bind(trading.insertOrder);
  readonly previewOrder = this.bind(trading.previewOrder);
  readonly cancelOrder = this.bind(trading.cancelOrder);
  readonly cancelOrderList = this.bind(trading.cancelOrderList);
  readonly replaceOrder = this.bind(trading.replaceOrder);
  readonly replaceOrderList = this.bind(trading.replaceOrderList);
  readonly openOrders = this.bind(trading.openOrders);
  readonly searchOrders = this.bind(trading.searchOrders);
  readonly searchOrderPages = this.bind(trading.searchOrderPages);
  readonly allOrders = this.bind(trading.allOrders);

  // Positions, accounts, users, funding.
  readonly positions = this.bind(account.positions);
  readonly balance = this.bind(account.balance);
  readonly balances = this.bind(account.balances);
  readonly whoAmI = this.bind(account.whoAmI);
  readonly listUsers = this.bind(account.listUsers);
  readonly allUsers = this.bind(account.allUsers);
  readonly createUser = this.bind(account.createUser);
  readonly fundingAccounts = this.bind(account.fundingAccounts);
  readonly aeropayDeposit = this.bind(account.aeropayDeposit);
  readonly checkoutDeposit = this.bind(account.checkoutDeposit);

  // Reference data.
  readonly refdataSymbols = this.bind(refdata.refdataSymbols);
  readonly refdataInstruments = this.bind(refdata.refdataInstruments);
  readonly refdataInstrumentPages = this.bind(refdata.refdataInstrumentPages);
  readonly loadInstruments = this.bind(refdata.loadInstruments);
  readonly refdataMetadata = this.bind(refdata.refdataMetadata);

  // KYC.
  readonly registerKycWebhook = this.bind(kyc.registerKycWebhook);
  readonly kycStatus = this.bind(kyc.kycStatus);
  readonly kycVerify = this.bind(kyc.kycVerify);

  /** Lets symbols the exchange did not know be looked up again (after new listings). */
  forgetUnknownSymbols(): void {
    this.ctx.instruments.forgetMisses();
  }

  /** Closes the transports; calls in flight fail with TRANSPORT_CLOSED. */
  async close(): Promise<void> {
    await this.options.transport.close();
    await this.options.onClose?.();
  }
}

export type { RequestOptions };
