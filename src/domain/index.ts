/**
 * Public API of the domain layer: exchange resources as types, enums, decimals, scaled integers, time,
 * and the wire mappers of both REST families.
 *
 * Modules:
 * - errors.ts      stable error codes (WIRE_INVALID_FIELD, SCALE_NOT_REPRESENTABLE, ...) and constructors
 * - decimal.ts     the project's configured `Decimal` and strict parse/format/compare/tick helpers
 * - scales.ts      scaled-integer <-> Decimal conversions, InstrumentScales, safe-integer helpers
 * - time.ts        EpochMs timestamps (ISO 8601 UTC) and proto Date
 * - enums.ts       every enum as a const array (proto order) and a string-literal union
 * - limits.ts      numeric limits and defaults from the spec
 * - stream-events.ts  the Venue port's stream events (lifecycle, order stream, market data, instrument states)
 * - types/*.ts     domain interfaces (order, requests, execution, market, reference, account, auth,
 *                  kyc, queries, stream, common)
 * - wire/codec.ts  table-driven codec core (paths, scopes, messages)
 * - wire/fields.ts field codecs with the proto3 JSON rules
 * - wire/stream-codec.ts  `{"result"}` / `{"error"}` stream line unions
 * - wire/tables/*.ts      one field table per resource
 * - wire/families.ts      the `gateway`, `familyA` and `authCodecs` registries
 *
 * Usage: `gateway.execution.decode(json, scalesBySymbol)`, `familyA.orderRequest.encode(req, scales)`.
 */
export * from './errors.ts';
export * from './decimal.ts';
export * from './scales.ts';
export * from './time.ts';
export * from './enums.ts';
export * from './limits.ts';
export type * from './types/common.ts';
export type * from './types/order.ts';
export type * from './types/requests.ts';
export type * from './types/execution.ts';
export type * from './types/market.ts';
export type * from './types/reference.ts';
export type * from './types/account.ts';
export type * from './types/kyc.ts';
export type * from './types/queries.ts';
export type * from './types/stream.ts';
export type * from './stream-events.ts';
export * from './types/auth.ts';
export {
  type BoundCodecs,
  type DomainOf,
  type EncodeOptions,
  type FamilyResource,
  type FixedResource,
  type ScaleSource,
  type WireCodec,
  authCodecs,
  bindCodec,
  familyA,
  familyResources,
  fixedResources,
  gateway,
  parseJsonText,
  scaleLookup,
} from './wire/families.ts';
export { type BookUpdateMessage, type ScaleLookup, fastMarketDataLine, fastMarketUpdate, fastOrderBook } from './wire/fast-book.ts';
export { type Naming, camelToSnake } from './wire/codec.ts';
