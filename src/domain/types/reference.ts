/**
 * Domain type of an instrument (reference data). The spec does not show its fields; this is our design.
 * Scales are the effective ones (a wire scale of 0 is stored as 1). Price limits and the minimum trade
 * quantity are scaled on the wire with the instrument's own scales; the tick size is a plain decimal.
 */
import type { Decimal } from '../decimal.ts';
import type { InstrumentState } from '../enums.ts';
import type { EpochMs, ProtoDate } from '../time.ts';

export interface Instrument {
  readonly symbol: string;
  readonly description: string;
  readonly state: InstrumentState;
  /** Power of ten; gateway `price_scale`, family A `priceScale`. */
  readonly priceScale: number;
  /** Power of ten; gateway `fractional_quantity_scale`, family A `fractionalQtyScale`. */
  readonly fractionalQtyScale: number;
  /** Plain decimal such as "0.01" (a JSON number is also accepted on input). */
  readonly tickSize: Decimal;
  /** Lowest accepted limit price (e.g. 0.01 for an event contract). */
  readonly lowPriceLimit: Decimal;
  /** Highest accepted limit price (e.g. 0.99). */
  readonly highPriceLimit: Decimal;
  readonly minimumTradeQty: Decimal;
  /** Settlement currency, e.g. "USD". */
  readonly currency: string;
  /** The event this contract belongs to, and its human description. */
  readonly eventId: string;
  readonly eventDescription: string;
  readonly tradingStartTime: EpochMs | undefined;
  /** When trading stops. */
  readonly expirationTime: EpochMs | undefined;
  readonly lastTradeDate: ProtoDate | undefined;
  /** When the contract settles (at 1.00 or 0.00). */
  readonly settlementTime: EpochMs | undefined;
}
