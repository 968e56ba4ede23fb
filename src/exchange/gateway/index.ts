/**
 * Public API of the trading gateway (family B) client: `GatewayClient` and what its methods take and return
 * (its streams emit the port's stream events, src/domain/stream-events.ts).
 *
 * Modules:
 * - client.ts         GatewayClient: transport composition + one method per endpoint + streams + close()
 * - session.ts        GatewaySession: login (TOTP when MFA is on), refresh before expiry, re-login, logout
 * - auth-api.ts       stateless /auth/v1beta1 calls (register, check_password, login, refresh, MFA, ...)
 * - trading-api.ts    order entry: insert (single, list, cross), preview, cancel, cancel-replace
 * - lookups-api.ts    open orders, searches with paging iterators, positions, balance, who-am-i
 * - streams.ts        order updates, market data, instrument states as Observables; snapshot-only Promises
 * - stream-runner.ts  resilient authenticated NDJSON streams (reconnect, resubscribe, watchdog, dedupe)
 * - order-inputs.ts   caller inputs -> complete requests; clord_id generation; list limits
 * - authed-caller.ts  bare-token Authorization and the one retry after a 401
 * - call.ts           one POST, error mapping, response decoding
 * - catalog.ts        InstrumentCatalog (symbol -> scales)
 * - errors.ts         GatewayError and its stable codes; transport error mapping
 */
export { GatewayClient } from './client.ts';
export type { GatewayClientOptions } from './client.ts';
export { GatewaySession } from './session.ts';
export type { GatewayCredentials, GatewaySessionOptions, SessionInfo } from './session.ts';
export { GatewayAuthApi } from './auth-api.ts';
export type { MfaConfirmation, MfaEnrollment, PasswordCheck, RegisterResult } from './auth-api.ts';
export { GatewayTradingApi } from './trading-api.ts';
export type { CrossResult, InsertOrderResult, OrderIdsResult, ReplaceOrderResult } from './trading-api.ts';
export { GatewayLookupsApi, walkPages } from './lookups-api.ts';
export type { BalanceInput, PositionsInput } from './lookups-api.ts';
export { GatewayStreams, ofType } from './streams.ts';
export type { InstrumentStateFilter, MarketDataFilter, OrderStreamFilter } from './streams.ts';
export { isFatalStreamError, runGatewayStream } from './stream-runner.ts';
export type { GatewayStreamOptions, StreamRunnerDeps, StreamSpec } from './stream-runner.ts';
export { checkListSize, defaultClordId, toCancelRequest, toCrossRequest, toOrderRequest, toReplaceRequest } from './order-inputs.ts';
export type {
  CancelOrderInput,
  ClordIdFactory,
  CrossOrderInput,
  OpenOrdersInput,
  OrderRequestInput,
  ReplaceOrderInput,
  SearchOrdersInput,
  SearchTradesInput,
} from './order-inputs.ts';
export { AuthedCaller } from './authed-caller.ts';
export type { TokenProvider } from './authed-caller.ts';
export { API_PREFIX, AUTH_PREFIX, gatewayPath } from './call.ts';
export type { RequestOptions } from './call.ts';
export { MapInstrumentCatalog, instrumentCatalog, scaleSourceOf } from './catalog.ts';
export type { InstrumentCatalog, InstrumentLike } from './catalog.ts';
export { GatewayError, GatewayErrorCode, isGatewayError, toGatewayError } from './errors.ts';
export type { GatewayErrorOptions } from './errors.ts';
