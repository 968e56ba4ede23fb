/**
 * Small shapes shared by several resources: opaque JSON objects and price/quantity pairs.
 */
import type { Decimal } from '../decimal.ts';

/** An object passed through without interpretation (proto Any, metadata, error details). */
export type JsonObject = Readonly<Record<string, unknown>>;

/** A price and a quantity (order book level, fills per price). */
export interface PriceQty {
  readonly px: Decimal;
  readonly qty: Decimal;
}
