/**
 * The gateway's lookup endpoints in the simulator: get_open_orders, search_orders, search_trades (paged),
 * list_account_positions, get_account_balance and get_who_am_i. A caller sees only its own accounts;
 * naming another user's account is PERMISSION_DENIED. Search page tokens are positions (searches.ts): pruning
 * the order history or trimming the trade tape while a caller pages skips nothing.
 */
import type { Router } from '../http/router.ts';
import { invalidArgument } from '../http/errors.ts';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import { checkAccount, type Caller } from '../exchange/commands.ts';
import { toDomainOrder } from '../exchange/to-domain.ts';
import { tradeSeenBy } from '../exchange/trade-view.ts';
import { firmOf } from './user-store.ts';
import { orderMatches, pageByPosition, pageSizeOf, tradeMatches, type TradeFilter } from '../exchange/searches.ts';
import { Decimal, ZERO } from '../../domain/decimal.ts';
import type { Position, Balance } from '../../domain/types/account.ts';
import type { Order } from '../../domain/types/order.ts';
import type { Trade as DomainTrade } from '../../domain/types/execution.ts';
import { decodeBody, gateway, scaleLookup } from './wire.ts';
import type { CallerOf } from './trading-routes.ts';
import type { LedgerPosition } from '../exchange/ledger.ts';

export interface LookupSettings {
  maxPageSize: number;
  whoAmI(caller: Caller): { username: string };
}

function accountsFilter(caller: Caller, requested: readonly string[]): string[] {
  for (const account of requested) checkAccount(caller, account);
  return requested.length > 0 ? [...requested] : [...caller.accounts];
}

/** A page of a list that does not change while it is paged (instruments, users): the token is an offset. */
export function page<T>(items: readonly T[], pageSize: number, pageToken: string, maxPageSize: number): { items: T[]; next: string } {
  const size = pageSizeOf(pageSize, maxPageSize);
  const start = pageToken === '' ? 0 : Number.parseInt(pageToken, 10);
  if (!Number.isSafeInteger(start) || start < 0 || String(start) !== pageToken.replace(/^$/, '0'))
    throw invalidArgument('page_token is not a token this server issued');
  const slice = items.slice(start, start + size);
  return { items: slice, next: start + size < items.length ? String(start + size) : '' };
}

export function domainPosition(core: ExchangeCore, position: LedgerPosition): Position {
  const scales = core.instrument(position.symbol)?.scales;
  const qtyScale = scales?.qtyScale ?? 1;
  const net = new Decimal(position.net).div(qtyScale);
  let openBuy = 0;
  let openSell = 0;
  for (const order of core.openOrders({ account: position.account, symbol: position.symbol })) {
    if (order.order.side === 'SIDE_BUY') openBuy += order.leavesQty;
    else openSell += order.leavesQty;
  }
  return {
    account: position.account,
    symbol: position.symbol,
    netPosition: net,
    openBuyQty: new Decimal(openBuy).div(qtyScale),
    openSellQty: new Decimal(openSell).div(qtyScale),
    avgEntryPx: net.isZero() ? ZERO : position.cost.div(net.abs()),
    costBasis: position.cost,
    realizedPnl: position.realizedPnl,
    updateTime: position.updateTime === 0 ? undefined : position.updateTime,
  };
}

export function domainBalance(core: ExchangeCore, account: string): Balance {
  const balance = core.ledger.balance(account);
  let held = ZERO;
  for (const order of core.openOrders({ account })) {
    const scales = core.instrument(order.order.symbol)?.scales;
    if (scales === undefined || order.order.side !== 'SIDE_BUY' || order.order.price === undefined) continue;
    held = held.plus(new Decimal(order.order.price).div(scales.priceScale).times(new Decimal(order.leavesQty).div(scales.qtyScale)));
  }
  return {
    account,
    currency: core.currency,
    balance: balance.cash,
    buyingPower: balance.cash.minus(held),
    openOrders: held,
    unsettledFunds: ZERO,
    availableToWithdraw: balance.cash.minus(held),
    updateTime: balance.updateTime === 0 ? undefined : balance.updateTime,
  };
}

/**
 * A page of the trade search (tokens are tape positions: searches.ts), as domain trades as the caller's firm
 * sees them (its own sides in full, the other firms' anonymised: trade-view.ts). Shared by the gateway,
 * `/v1/report/trades/search` and gRPC SearchTrades, so all three take the same filters.
 */
export function searchTradesPage(
  core: ExchangeCore,
  caller: Caller,
  accounts: readonly string[],
  filter: TradeFilter & { pageSize: number; pageToken: string },
  maxPageSize: number,
): { items: DomainTrade[]; next: string } {
  // one rule for every door (the /v1 spec lists the states "except UNDEFINED"): no trade is ever in it
  if (filter.states.includes('TRADE_STATE_UNDEFINED')) {
    throw invalidArgument('states: TRADE_STATE_UNDEFINED is not a searchable state; name real states, or send none for all');
  }
  const firm = firmOf(caller.participant);
  const { items, next } = pageByPosition(tradeMatches(core, accounts, filter, firm), filter.pageSize, filter.pageToken, maxPageSize);
  const trades: DomainTrade[] = [];
  for (const trade of items) {
    const instrument = core.instrument(trade.symbol);
    if (instrument !== undefined) trades.push(tradeSeenBy(trade, instrument.scales, firm));
  }
  return { items: trades, next };
}

export function registerGatewayLookupRoutes(router: Router, core: ExchangeCore, callerOf: CallerOf, settings: LookupSettings): void {
  const base = '/api/v1beta1';
  const scales = scaleLookup(core);
  const orderOf = (record: ReturnType<ExchangeCore['order']> & object): Order | undefined => {
    const s = core.instrument(record.latest.order.symbol)?.scales;
    return s === undefined
      ? undefined
      : toDomainOrder(record.latest, s, {
          fills: record.fills,
          lastTradeId: record.lastTradeId,
          lastTransactTime: record.lastTransactTime,
        });
  };

  router.post(`${base}/get_open_orders`, async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.openOrdersRequest, core);
    const accounts = accountsFilter(caller, request.accounts);
    const orders: Order[] = [];
    for (const account of accounts) {
      for (const snapshot of core.openOrders({ account })) {
        if (request.symbols.length > 0 && !request.symbols.includes(snapshot.order.symbol)) continue;
        const record = core.order(snapshot.order.orderId);
        const order = record === undefined ? undefined : orderOf(record);
        if (order !== undefined) orders.push(order);
      }
    }
    return { body: gateway.openOrdersResponse.encode({ orders }, scales) };
  });

  router.post(`${base}/search_orders`, async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.searchOrdersRequest, core);
    const accounts = accountsFilter(caller, request.accounts);
    const { items: records, next } = pageByPosition(
      orderMatches(core, accounts, request),
      request.pageSize,
      request.pageToken,
      settings.maxPageSize,
    );
    const items = records.flatMap((record) => orderOf(record) ?? []);
    return { body: gateway.searchOrdersResponse.encode({ orders: items, nextPageToken: next }, scales) };
  });

  router.post(`${base}/search_trades`, async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.searchTradesRequest, core);
    const accounts = accountsFilter(caller, request.accounts);
    const { items, next } = searchTradesPage(core, caller, accounts, request, settings.maxPageSize);
    return { body: gateway.searchTradesResponse.encode({ trades: items, nextPageToken: next }, scales) };
  });

  router.post(`${base}/list_account_positions`, async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.positionsRequest, core);
    checkAccount(caller, request.name);
    const positions = core.ledger
      .positionsOf(request.name)
      .filter((p) => request.symbol === '' || p.symbol === request.symbol)
      .map((p) => domainPosition(core, p));
    const available = positions
      .filter((p) => p.netPosition.gt(0))
      .map((p) => ({ account: p.account, symbol: p.symbol, qty: p.netPosition.minus(p.openSellQty).clampedTo(0, Infinity) }));
    return { body: gateway.positionsResponse.encode({ positions, availablePosition: available }, scales) };
  });

  router.post(`${base}/get_account_balance`, async (context) => {
    const caller = await callerOf(context);
    const request = await decodeBody(context, gateway.balanceRequest, core);
    checkAccount(caller, request.name);
    if (request.currency !== '' && request.currency !== core.currency)
      throw invalidArgument(`unknown currency ${request.currency}; accounts hold ${core.currency}`);
    return { body: gateway.balance.encode(domainBalance(core, request.name)) };
  });

  router.post(`${base}/get_who_am_i`, async (context) => {
    const caller = await callerOf(context);
    const [, firm = '', , user = ''] = caller.participant.split('/');
    return {
      body: gateway.whoAmI.encode({
        participantId: caller.participant,
        firmId: firm,
        userId: user,
        username: settings.whoAmI(caller).username,
        accounts: [...caller.accounts],
        scopes: [],
      }),
    };
  });
}
