/**
 * The gRPC market data fast path (src/exchange/grpc/protocol/market-data-reader.ts, used by
 * decodeMarketDataResponse) against the proto-loader deserializer and the codec: the same typed message for
 * every book update the simulator's encoding gives, undefined for anything else, and for damaged bytes
 * decodeMarketDataResponse gives exactly what the deserializer and codec give (the value, or an error with
 * the same code).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INSTRUMENT_STATES } from '../../../../src/domain/index.ts';
import {
  decodeMarketDataResponse,
  exchangeProtocol,
  grpcCodecs,
  methodRef,
  readMarketDataUpdate,
} from '../../../../src/exchange/grpc/protocol/index.ts';
import { KNOWN, anySymbol, bookUpdate, encodeScales, knownSymbol, outcome } from '../../../helpers/book-updates.ts';

const wire = exchangeProtocol().method(methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription'));
const lookup = (symbol: string) => KNOWN.get(symbol);
const slow = (bytes: Buffer) => grpcCodecs.marketDataStream.decode(wire.deserializeResponse(bytes), KNOWN);
const bytesOf = (message: Parameters<typeof grpcCodecs.marketDataStream.encode>[0]): Buffer =>
  wire.serializeResponse(grpcCodecs.marketDataStream.encode(message, encodeScales));

describe('readMarketDataUpdate', () => {
  it('gives what the deserializer and codec give for every update of a known symbol with raw values of up to 15 digits', () => {
    fc.assert(
      fc.property(bookUpdate(knownSymbol, false), (book) => {
        const bytes = bytesOf({ kind: 'update', ...book });
        const fast = readMarketDataUpdate(bytes, lookup);
        expect(fast).toBeDefined();
        expect(fast).toEqual(slow(bytes));
        expect(fast).toEqual({ kind: 'update', ...book });
      }),
      { numRuns: 300 },
    );
  });

  it('decodeMarketDataResponse gives the update for any raw values (longer ones through the codec)', () => {
    fc.assert(
      fc.property(bookUpdate(knownSymbol), (book) => {
        const bytes = bytesOf({ kind: 'update', ...book });
        expect(decodeMarketDataResponse(bytes, KNOWN, lookup)).toEqual({ kind: 'update', ...book });
      }),
      { numRuns: 200 },
    );
  });

  it('reads every InstrumentState number as the protocol file names it, and leaves unknown numbers to the codec', () => {
    for (let n = 0; n < INSTRUMENT_STATES.length + 3; n++) {
      const bytes = wire.serializeResponse({ update: { symbol: 'RAIN-NYC', state: n } });
      const expected = outcome(() => slow(bytes));
      const fast = readMarketDataUpdate(bytes, lookup);
      if (n < INSTRUMENT_STATES.length) expect({ value: fast }).toEqual(expected);
      else expect(fast).toBeUndefined();
    }
  });

  it('leaves heartbeats, unknown symbols and other encodings to the codec', () => {
    expect(readMarketDataUpdate(bytesOf({ kind: 'heartbeat' }), lookup)).toBeUndefined();
    expect(
      readMarketDataUpdate(
        bytesOf({ kind: 'update', symbol: 'UNKNOWN-1', bids: [], offers: [], state: undefined, stats: undefined, transactTime: undefined }),
        lookup,
      ),
    ).toBeUndefined();
    // Fields out of number order (the symbol last) and a repeated symbol: valid protobuf, decided by the codec.
    const update = wire.serializeResponse({ update: { symbol: 'RAIN-NYC', transact_time: '2026-01-05T14:30:00Z' } });
    const reordered = Buffer.concat([update.subarray(0, 2), update.subarray(12), update.subarray(2, 12)]);
    reordered[1] = update[1] as number;
    expect(readMarketDataUpdate(reordered, lookup)).toBeUndefined();
    expect(decodeMarketDataResponse(reordered, KNOWN, lookup)).toEqual(slow(reordered));
  });

  it('decodeMarketDataResponse agrees with the deserializer and codec on damaged bytes (value or error code)', () => {
    const damaged = fc
      .tuple(
        bookUpdate(anySymbol),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 4 }),
        fc.nat(),
      )
      .map(([book, flips, cut]) => {
        const bytes = Buffer.from(bytesOf({ kind: 'update', ...book }));
        for (const [at, value] of flips) bytes[at % bytes.length] = value;
        return cut % 5 === 0 ? bytes.subarray(0, cut % (bytes.length + 1)) : bytes;
      });
    fc.assert(
      fc.property(damaged, (bytes) => {
        const expected = outcome(() => slow(bytes));
        expect(outcome(() => decodeMarketDataResponse(bytes, KNOWN, lookup))).toEqual(expected);
        const fast = readMarketDataUpdate(bytes, lookup);
        if (fast !== undefined) expect({ value: fast }).toEqual(expected);
      }),
      { numRuns: 1500 },
    );
  });

  it('names each update by its own symbol with many symbols of one length in turn (more than it keeps at hand)', () => {
    const symbols = Array.from({ length: 40 }, (_, i) => `SYM-${String(i).padStart(2, '0')}`);
    const anyScales = (symbol: string) => (symbol.startsWith('SYM-') ? encodeScales(symbol) : undefined);
    const order = fc.array(fc.integer({ min: 0, max: symbols.length - 1 }), { minLength: 1, maxLength: 200 });
    fc.assert(
      fc.property(order, (picks) => {
        for (const pick of picks) {
          const symbol = symbols[pick] as string;
          const message = { symbol, bids: [], offers: [], state: undefined, stats: undefined, transactTime: undefined };
          expect(readMarketDataUpdate(bytesOf({ kind: 'update', ...message }), anyScales)).toEqual({ kind: 'update', ...message });
        }
      }),
      { numRuns: 50 },
    );
  });

  it('gives bytes of another stream or garbage to the codec, which refuses them with its codes', () => {
    const garbage = Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]);
    expect(outcome(() => decodeMarketDataResponse(garbage, KNOWN, lookup))).toEqual(outcome(() => slow(garbage)));
    expect(outcome(() => decodeMarketDataResponse(garbage, KNOWN, lookup))).toEqual({ code: 'GRPC_UNDECODABLE_MESSAGE' });
  });
});
