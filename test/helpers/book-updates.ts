/**
 * fast-check arbitraries of market data book updates (the domain's OrderBook) for the checks of the
 * decode fast paths against the table codec: prices, sizes and statistics as raw scaled integers of every
 * size (zero, small, past the decimal caches, up to 15 and 18 digits), optional state, stats and time,
 * for a symbol with known scales or an unknown one.
 */
import fc from 'fast-check';
import { INSTRUMENT_STATES, ZERO, instrumentScales, tryDecimalFromRaw } from '../../src/domain/index.ts';
import type { Decimal, InstrumentScales, OrderBook } from '../../src/domain/index.ts';

export const KNOWN: ReadonlyMap<string, InstrumentScales> = new Map([
  ['RAIN-NYC', instrumentScales(100, 1)],
  ['SNOW-BOS', instrumentScales(10_000, 100)],
]);

/** Scales to encode with: the known symbols', and made-up ones for the others (the decoder does not know them). */
export const encodeScales = (symbol: string): InstrumentScales => KNOWN.get(symbol) ?? instrumentScales(100, 1);

const smallRawInt = fc.oneof(
  fc.constant(0),
  fc.integer({ min: 1, max: 500 }),
  fc.integer({ min: 16_000, max: 17_000 }),
  fc.integer({ min: 1, max: 999_999_999_999_999 }),
);
const anyRawInt = fc.oneof(smallRawInt, fc.bigInt({ min: 1_000_000_000_000_000n, max: 999_999_999_999_999_999n }));

function decimal(raw: number | bigint, digits: number): Decimal {
  return tryDecimalFromRaw(String(raw), digits) ?? ZERO;
}

/**
 * A book update of `symbol` (values built at the symbol's scales, made up for an unknown one); raw values of
 * up to 15 digits, or up to 18 when `wide`.
 */
export function bookUpdate(symbol: fc.Arbitrary<string>, wide = true): fc.Arbitrary<OrderBook> {
  const rawInt = wide ? anyRawInt : smallRawInt;
  return symbol.chain((sym) => {
    const scales = encodeScales(sym);
    const p = scales.priceDigits;
    const q = scales.qtyDigits;
    const level = fc.record({ px: rawInt, qty: rawInt }).map(({ px, qty }) => ({ px: decimal(px, p), qty: decimal(qty, q) }));
    const stats = fc.array(rawInt, { minLength: 10, maxLength: 10 }).map((r) => ({
      openPx: decimal(r[0] ?? 0, p),
      closePx: decimal(r[1] ?? 0, p),
      lowPx: decimal(r[2] ?? 0, p),
      highPx: decimal(r[3] ?? 0, p),
      lastTradePx: decimal(r[4] ?? 0, p),
      indicativeOpenPx: decimal(r[5] ?? 0, p),
      settlementPx: decimal(r[6] ?? 0, p),
      sharesTraded: decimal(r[7] ?? 0, q),
      notionalTraded: decimal(r[8] ?? 0, p + q),
      openInterest: decimal(r[9] ?? 0, q),
    }));
    return fc.record({
      symbol: fc.constant(sym),
      bids: fc.array(level, { maxLength: 12 }),
      offers: fc.array(level, { maxLength: 12 }),
      state: fc.option(fc.constantFrom(...INSTRUMENT_STATES), { nil: undefined }),
      stats: fc.option(stats, { nil: undefined }),
      transactTime: fc.option(fc.integer({ min: 0, max: 4_102_444_800_000 }), { nil: undefined }),
    });
  });
}

export const knownSymbol = fc.constantFrom(...KNOWN.keys());
export const anySymbol = fc.oneof(knownSymbol, fc.constantFrom('UNKNOWN-1', ''));

/** What a decode gave: the value, or the error's code. */
export function outcome<T>(decode: () => T): { value: T } | { code: string } {
  try {
    return { value: decode() };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return { code: typeof code === 'string' ? code : `uncoded: ${String(error)}` };
  }
}
