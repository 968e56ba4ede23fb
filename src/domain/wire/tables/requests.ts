/**
 * Field tables of commands, lookups, searches (with paging) and subscription requests, and their
 * responses. Search responses use the singular wire keys `trade` / `order`, as the spec shows for trades.
 */
import { CROSS_TYPES, ORDER_STATES, TRADE_STATES } from '../../enums.ts';
import type {
  BalanceRequest,
  BalancesResponse,
  FundingAccountsResponse,
  InstrumentStateSubscriptionRequest,
  ListInstrumentsRequest,
  ListInstrumentsResponse,
  ListSymbolsResponse,
  ListUsersResponse,
  MarketDataSubscriptionRequest,
  OpenOrdersRequest,
  OpenOrdersResponse,
  OrderSubscriptionRequest,
  PositionSubscriptionRequest,
  PositionsRequest,
  PositionsResponse,
  SearchOrdersRequest,
  SearchOrdersResponse,
  SearchTradesRequest,
  SearchTradesResponse,
  TradeStatsRequest,
} from '../../types/queries.ts';
import type {
  CancelOrderListRequest,
  CancelOrderRequest,
  CrossOrderRequest,
  InsertOrderListRequest,
  InsertOrderResponse,
  OrderIdResponse,
  OrderIdsResponse,
  PreviewOrderRequest,
  PreviewOrderResponse,
  ReplaceOrderListRequest,
  ReplaceOrderRequest,
} from '../../types/requests.ts';
import { message, msg, renamed } from '../codec.ts';
import { bool, date, enumOf, int32, list, price, qty, str, time } from '../fields.ts';
import { tradeCodec } from './execution.ts';
import { orderCodec, orderRequestCodec, sideField, timeInForceField } from './order.ts';
import { availablePositionCodec, balanceCodec, fundingAccountCodec, instrumentCodec, positionCodec, userCodec } from './reference.ts';

const orders = list(msg(orderCodec));
const requests = list(msg(orderRequestCodec));

export const insertOrderResponseCodec = message<InsertOrderResponse>({
  name: 'InsertOrderResponse',
  fields: { orderId: str(), clordId: str(), status: str() },
});
export const insertOrderListRequestCodec = message<InsertOrderListRequest>({
  name: 'InsertOrderListRequest',
  fields: { requests },
});
const orderIdResponseCodec = message<OrderIdResponse>({ name: 'OrderIdResponse', fields: { orderId: str() } });
export const orderIdsResponseCodec = message<OrderIdsResponse>({
  name: 'OrderIdsResponse',
  fields: { responses: list(msg(orderIdResponseCodec)) },
});
export const previewOrderRequestCodec = message<PreviewOrderRequest>({
  name: 'PreviewOrderRequest',
  fields: { request: msg(orderRequestCodec) },
});
export const previewOrderResponseCodec = message<PreviewOrderResponse>({
  name: 'PreviewOrderResponse',
  fields: { previewOrder: msg(orderCodec) },
});
export const cancelOrderRequestCodec = message<CancelOrderRequest>({
  name: 'CancelOrderRequest',
  fields: { orderId: str(), symbol: str(), clordId: str(), symbolSubType: str() },
});
export const cancelOrderListRequestCodec = message<CancelOrderListRequest>({
  name: 'CancelOrderListRequest',
  fields: { requests: list(msg(cancelOrderRequestCodec)) },
});
export const replaceOrderRequestCodec = message<ReplaceOrderRequest>({
  name: 'ReplaceOrderRequest',
  scope: { symbolAt: ['symbol'] },
  fields: {
    orderId: str(),
    symbol: str(),
    clordId: str(),
    symbolSubType: str(),
    orderQty: qty(),
    price: price(),
    stopPrice: price(),
    minQty: qty(),
    timeInForce: timeInForceField,
    goodTillTime: time(),
    allOrNone: bool(),
  },
});
export const replaceOrderListRequestCodec = message<ReplaceOrderListRequest>({
  name: 'ReplaceOrderListRequest',
  fields: { requests: list(msg(replaceOrderRequestCodec)) },
});
export const crossOrderRequestCodec = message<CrossOrderRequest>({
  name: 'CrossOrderRequest',
  fields: {
    crossId: str(),
    crossType: enumOf(CROSS_TYPES, 'CrossType'),
    crossPrioritizedSide: sideField,
    blockTradeIndicator: bool(),
    requests,
    transactionBookedTime: time(),
  },
});

export const searchTradesRequestCodec = message<SearchTradesRequest>({
  name: 'SearchTradesRequest',
  fields: {
    accounts: list(str()),
    startTime: time(),
    endTime: time(),
    execId: str(),
    orderId: str(),
    tradeId: str(),
    tradeLinkId: str(),
    symbol: str(),
    states: list(enumOf(TRADE_STATES, 'TradeState')),
    pageSize: int32(),
    pageToken: str(),
  },
});
export const searchTradesResponseCodec = message<SearchTradesResponse>({
  name: 'SearchTradesResponse',
  fields: {
    trades: renamed(list(msg(tradeCodec)), { snake: 'trade', camel: 'trade' }),
    nextPageToken: str(),
  },
});
export const searchOrdersRequestCodec = message<SearchOrdersRequest>({
  name: 'SearchOrdersRequest',
  fields: {
    accounts: list(str()),
    symbol: str(),
    orderId: str(),
    clordId: str(),
    startTime: time(),
    endTime: time(),
    states: list(enumOf(ORDER_STATES, 'OrderState')),
    pageSize: int32(),
    pageToken: str(),
  },
});
export const searchOrdersResponseCodec = message<SearchOrdersResponse>({
  name: 'SearchOrdersResponse',
  fields: { orders: renamed(orders, { snake: 'order', camel: 'order' }), nextPageToken: str() },
});
export const tradeStatsRequestCodec = message<TradeStatsRequest>({
  name: 'TradeStatsRequest',
  fields: {
    symbol: str(),
    startTime: time(),
    endTime: time(),
    bars: int32(),
    startTradeDate: date(),
    endTradeDate: date(),
  },
});
export const openOrdersRequestCodec = message<OpenOrdersRequest>({
  name: 'OpenOrdersRequest',
  fields: { accounts: list(str()), symbols: list(str()) },
});
export const openOrdersResponseCodec = message<OpenOrdersResponse>({ name: 'OpenOrdersResponse', fields: { orders } });
export const listInstrumentsRequestCodec = message<ListInstrumentsRequest>({
  name: 'ListInstrumentsRequest',
  fields: { symbols: list(str()), pageSize: int32(), pageToken: str() },
});
export const listInstrumentsResponseCodec = message<ListInstrumentsResponse>({
  name: 'ListInstrumentsResponse',
  fields: { instruments: list(msg(instrumentCodec)), nextPageToken: str() },
});
export const listSymbolsResponseCodec = message<ListSymbolsResponse>({
  name: 'ListSymbolsResponse',
  fields: { symbols: list(str()) },
});
export const positionsRequestCodec = message<PositionsRequest>({
  name: 'PositionsRequest',
  fields: { name: str(), symbol: str() },
});
export const positionsResponseCodec = message<PositionsResponse>({
  name: 'PositionsResponse',
  fields: { positions: list(msg(positionCodec)), availablePosition: list(msg(availablePositionCodec)) },
});
export const balanceRequestCodec = message<BalanceRequest>({
  name: 'BalanceRequest',
  fields: { name: str(), currency: str() },
});
export const balancesResponseCodec = message<BalancesResponse>({
  name: 'BalancesResponse',
  fields: { balances: list(msg(balanceCodec)) },
});
export const listUsersResponseCodec = message<ListUsersResponse>({
  name: 'ListUsersResponse',
  fields: { users: list(msg(userCodec)), nextPageToken: str() },
});
export const fundingAccountsResponseCodec = message<FundingAccountsResponse>({
  name: 'FundingAccountsResponse',
  fields: { fundingAccounts: list(msg(fundingAccountCodec)) },
});
export const orderSubscriptionRequestCodec = message<OrderSubscriptionRequest>({
  name: 'OrderSubscriptionRequest',
  fields: { accounts: list(str()), symbols: list(str()), snapshotOnly: bool() },
});
export const marketDataSubscriptionRequestCodec = message<MarketDataSubscriptionRequest>({
  name: 'MarketDataSubscriptionRequest',
  fields: { symbols: list(str()), depth: int32(), snapshotOnly: bool() },
});
export const instrumentStateSubscriptionRequestCodec = message<InstrumentStateSubscriptionRequest>({
  name: 'InstrumentStateSubscriptionRequest',
  fields: { symbols: list(str()) },
});
export const positionSubscriptionRequestCodec = message<PositionSubscriptionRequest>({
  name: 'PositionSubscriptionRequest',
  fields: { accounts: list(str()) },
});
