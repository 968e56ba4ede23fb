/**
 * The public codec registries: `gateway` (snake_case keys), `familyA` (camelCase keys) and `authCodecs`
 * (token, gateway auth and KYC payloads, whose naming is fixed by the spec).
 *
 *   gateway.order.decode(json, scales)                   // wire -> domain, validating
 *   familyA.orderRequest.encode(request, scales)          // domain -> wire JSON object
 *   gateway.orderStream.decodeText(line, scalesBySymbol)  // one NDJSON line
 *
 * `scales` is an InstrumentScales (used for every symbol), a Map symbol -> InstrumentScales, or a lookup
 * function; it is needed only by resources with scaled prices/quantities. Instruments carry their own.
 * Inbound payloads may carry unknown extra fields: they are ignored (forward compatibility).
 */
import { DomainErrorCode, domainError } from '../errors.ts';
import type { InstrumentScales } from '../scales.ts';
import type { Ctx, Naming, RootCodec, Scope } from './codec.ts';
import * as auth from './tables/auth.ts';
import { cancelRejectCodec, executionCodec, legPriceCodec, tradeCodec } from './tables/execution.ts';
import { bestBidOfferCodec, instrumentStatsCodec, orderBookCodec, tradeStatsCodec, tradeStatsResultCodec } from './tables/market.ts';
import { orderCodec, orderRequestCodec } from './tables/order.ts';
import {
  availablePositionCodec,
  balanceCodec,
  fundingAccountCodec,
  instrumentCodec,
  positionCodec,
  userCodec,
  whoAmICodec,
} from './tables/reference.ts';
import * as req from './tables/requests.ts';
import { instrumentStateStreamCodec, marketDataStreamCodec, orderStreamCodec, positionStreamCodec } from './tables/streams.ts';
import { gatewayErrorBodyCodec, streamErrorCodec } from './stream-codec.ts';

export type ScaleSource = InstrumentScales | ReadonlyMap<string, InstrumentScales> | ((symbol: string) => InstrumentScales | undefined);

export interface EncodeOptions {
  /** Write proto3 default values ('' / 0 / false / zero enums / []) instead of omitting them. */
  readonly emitDefaults?: boolean;
}

export interface WireCodec<T> {
  /** Validates a parsed JSON value; throws a TradebotError naming the field path. */
  readonly decode: (json: unknown, scales?: ScaleSource) => T;
  /** Parses JSON text (e.g. one NDJSON stream line), then decodes. */
  readonly decodeText: (text: string, scales?: ScaleSource) => T;
  /** Builds the wire JSON object (ready for JSON.stringify). */
  readonly encode: (value: T, scales?: ScaleSource, options?: EncodeOptions) => Record<string, unknown>;
}

/** JSON.parse with a typed WIRE_INVALID_JSON error. */
export function parseJsonText(text: string, what = 'payload'): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    const preview = text.length > 60 ? `${text.slice(0, 57)}...` : text;
    throw domainError(DomainErrorCode.WIRE_INVALID_JSON, `${what}: expected JSON, got ${JSON.stringify(preview)}`, {
      what,
      cause: cause instanceof Error ? cause.message : String(cause),
    });
  }
}

const none = (): undefined => undefined;

function contextOf(naming: Naming, source: ScaleSource | undefined, emitDefaults: boolean): [Ctx, Scope] {
  if (source === undefined) return [{ naming, lookup: none, emitDefaults }, ''];
  if (typeof source === 'function') return [{ naming, lookup: source, emitDefaults }, ''];
  if ('priceScale' in source) return [{ naming, lookup: () => source as InstrumentScales, emitDefaults }, source];
  const map = source;
  return [{ naming, lookup: (symbol) => map.get(symbol), emitDefaults }, ''];
}

/** The symbol -> scales lookup the codecs use for `source` (the same as `decode` would use). */
export function scaleLookup(source: ScaleSource | undefined): (symbol: string) => InstrumentScales | undefined {
  return contextOf('snake', source, false)[0].lookup;
}

export function bindCodec<T>(codec: RootCodec<T>, naming: Naming): WireCodec<T> {
  const decode = (json: unknown, scales?: ScaleSource): T => {
    const [ctx, scope] = contextOf(naming, scales, false);
    return codec.decodeAt(json, undefined, ctx, scope);
  };
  return {
    decode,
    decodeText: (text, scales) => decode(parseJsonText(text), scales),
    encode(value, scales, options) {
      const [ctx, scope] = contextOf(naming, scales, options?.emitDefaults ?? false);
      return codec.encodeAt(value, undefined, ctx, scope);
    },
  };
}

/** Every resource that exists in both families (the same table, snake_case or camelCase keys). */
export const familyResources = {
  order: orderCodec,
  orderRequest: orderRequestCodec,
  execution: executionCodec,
  legPrice: legPriceCodec,
  trade: tradeCodec,
  cancelReject: cancelRejectCodec,
  orderBook: orderBookCodec,
  bestBidOffer: bestBidOfferCodec,
  instrumentStats: instrumentStatsCodec,
  tradeStats: tradeStatsCodec,
  tradeStatsResult: tradeStatsResultCodec,
  instrument: instrumentCodec,
  position: positionCodec,
  availablePosition: availablePositionCodec,
  balance: balanceCodec,
  whoAmI: whoAmICodec,
  user: userCodec,
  fundingAccount: fundingAccountCodec,
  insertOrderResponse: req.insertOrderResponseCodec,
  insertOrderListRequest: req.insertOrderListRequestCodec,
  orderIdsResponse: req.orderIdsResponseCodec,
  previewOrderRequest: req.previewOrderRequestCodec,
  previewOrderResponse: req.previewOrderResponseCodec,
  cancelOrderRequest: req.cancelOrderRequestCodec,
  cancelOrderListRequest: req.cancelOrderListRequestCodec,
  replaceOrderRequest: req.replaceOrderRequestCodec,
  replaceOrderListRequest: req.replaceOrderListRequestCodec,
  crossOrderRequest: req.crossOrderRequestCodec,
  searchTradesRequest: req.searchTradesRequestCodec,
  searchTradesResponse: req.searchTradesResponseCodec,
  searchOrdersRequest: req.searchOrdersRequestCodec,
  searchOrdersResponse: req.searchOrdersResponseCodec,
  tradeStatsRequest: req.tradeStatsRequestCodec,
  openOrdersRequest: req.openOrdersRequestCodec,
  openOrdersResponse: req.openOrdersResponseCodec,
  listInstrumentsRequest: req.listInstrumentsRequestCodec,
  listInstrumentsResponse: req.listInstrumentsResponseCodec,
  listSymbolsResponse: req.listSymbolsResponseCodec,
  positionsRequest: req.positionsRequestCodec,
  positionsResponse: req.positionsResponseCodec,
  balanceRequest: req.balanceRequestCodec,
  balancesResponse: req.balancesResponseCodec,
  listUsersResponse: req.listUsersResponseCodec,
  fundingAccountsResponse: req.fundingAccountsResponseCodec,
  orderSubscriptionRequest: req.orderSubscriptionRequestCodec,
  marketDataSubscriptionRequest: req.marketDataSubscriptionRequestCodec,
  instrumentStateSubscriptionRequest: req.instrumentStateSubscriptionRequestCodec,
  positionSubscriptionRequest: req.positionSubscriptionRequestCodec,
  orderStream: orderStreamCodec,
  marketDataStream: marketDataStreamCodec,
  instrumentStateStream: instrumentStateStreamCodec,
  positionStream: positionStreamCodec,
  streamError: streamErrorCodec,
  errorBody: gatewayErrorBodyCodec,
} as const;

/** Payloads whose key naming is fixed by the spec (OAuth token: snake_case; gateway auth, KYC: camelCase). */
export const fixedResources = {
  tokenRequest: auth.tokenRequestCodec,
  tokenResponse: auth.tokenResponseCodec,
  registerRequest: auth.registerRequestCodec,
  loginRequest: auth.loginRequestCodec,
  loginResponse: auth.loginResponseCodec,
  refreshRequest: auth.refreshRequestCodec,
  refreshResponse: auth.refreshResponseCodec,
  logoutRequest: auth.logoutRequestCodec,
  enrollMfaRequest: auth.enrollMfaRequestCodec,
  enrollMfaResponse: auth.enrollMfaResponseCodec,
  confirmMfaRequest: auth.confirmMfaRequestCodec,
  changePasswordRequest: auth.changePasswordRequestCodec,
  kycNotification: auth.kycNotificationCodec,
  kycStatus: auth.kycStatusCodec,
  kycWebhookRequest: auth.kycWebhookRequestCodec,
  kycWebhookResponse: auth.kycWebhookResponseCodec,
  kycVerifyRequest: auth.kycVerifyRequestCodec,
} as const;

export type DomainOf<C> = C extends RootCodec<infer T> ? T : never;
export type BoundCodecs<R> = { readonly [K in keyof R]: WireCodec<DomainOf<R[K]>> };
export type FamilyResource = keyof typeof familyResources;
export type FixedResource = keyof typeof fixedResources;

function bindAll<R extends object>(resources: R, naming: Naming): BoundCodecs<R> {
  const out: Record<string, WireCodec<unknown>> = {};
  for (const [name, codec] of Object.entries(resources)) out[name] = bindCodec(codec as RootCodec<unknown>, naming);
  return out as BoundCodecs<R>;
}

/** Trading gateway (/api/v1beta1): snake_case keys. */
export const gateway: BoundCodecs<typeof familyResources> = bindAll(familyResources, 'snake');
/** Family A (/v1): camelCase keys. */
export const familyA: BoundCodecs<typeof familyResources> = bindAll(familyResources, 'camel');
/** Token, gateway auth and KYC payloads. */
export const authCodecs: BoundCodecs<typeof fixedResources> = bindAll(fixedResources, 'camel');
