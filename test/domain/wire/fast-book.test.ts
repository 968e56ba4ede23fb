/**
 * The gateway market data line fast path (src/domain/wire/fast-book.ts) against the table codec: the same
 * typed message for every update it takes, and undefined (the codec decides) for anything else, so bad
 * input still fails with the codec's error codes.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastMarketDataLine, gateway } from '../../../src/domain/index.ts';
import { KNOWN, anySymbol, bookUpdate, encodeScales, knownSymbol, outcome } from '../../helpers/book-updates.ts';

const lookup = (symbol: string) => KNOWN.get(symbol);
const slow = (line: unknown) => gateway.marketDataStream.decode(line, KNOWN);

/** A line as the gateway writes it (encoded, then through JSON text as on the wire). */
function lineOf(book: Parameters<typeof gateway.marketDataStream.encode>[0]): Record<string, unknown> {
  return JSON.parse(JSON.stringify(gateway.marketDataStream.encode(book, encodeScales))) as Record<string, unknown>;
}

describe('fastMarketDataLine', () => {
  it('gives what the codec gives for every update of a known symbol', () => {
    fc.assert(
      fc.property(bookUpdate(knownSymbol), (book) => {
        const line = lineOf({ kind: 'update', ...book });
        const fast = fastMarketDataLine(line, lookup);
        expect(fast).toBeDefined();
        expect(fast).toEqual(slow(line));
        expect(fast).toEqual({ kind: 'update', ...book });
      }),
      { numRuns: 300 },
    );
  });

  it('leaves heartbeats, error lines and unknown symbols to the codec', () => {
    expect(fastMarketDataLine({ result: { heartbeat: {} } }, lookup)).toBeUndefined();
    expect(fastMarketDataLine({ error: { code: 14, message: 'gone' } }, lookup)).toBeUndefined();
    expect(fastMarketDataLine({ result: { update: { symbol: 'UNKNOWN-1' } } }, lookup)).toBeUndefined();
    expect(fastMarketDataLine({ result: { update: { symbol: 'RAIN-NYC' }, heartbeat: {} } }, lookup)).toBeUndefined();
    expect(fastMarketDataLine('not a line', lookup)).toBeUndefined();
  });

  it('never disagrees with the codec on damaged lines: same value, or undefined where the codec decides', () => {
    const paths: readonly (readonly (string | number)[])[] = [
      ['result'],
      ['result', 'update'],
      ['result', 'update', 'symbol'],
      ['result', 'update', 'bids'],
      ['result', 'update', 'bids', 0],
      ['result', 'update', 'bids', 0, 'px'],
      ['result', 'update', 'offers', 0, 'qty'],
      ['result', 'update', 'state'],
      ['result', 'update', 'stats'],
      ['result', 'update', 'stats', 'shares_traded'],
      ['result', 'update', 'stats', 'notional_traded'],
      ['result', 'update', 'transact_time'],
      ['error'],
    ];
    const damage = fc.oneof(
      fc.anything(),
      fc.constantFrom('', '0', '-5', '05', '1.5', '99999999999999999999', 'x', 'INSTRUMENT_STATE_OPEN', 'BOGUS', 7, -1, 1.5, null),
    );
    fc.assert(
      fc.property(bookUpdate(anySymbol), fc.constantFrom(...paths), damage, (book, path, value) => {
        const line = lineOf({ kind: 'update', ...book });
        let at: unknown = line;
        for (const seg of path.slice(0, -1)) at = (at as Record<string | number, unknown> | undefined)?.[seg];
        if (typeof at === 'object' && at !== null) (at as Record<string | number, unknown>)[path[path.length - 1] as string] = value;
        const expected = outcome(() => slow(line));
        const fast = fastMarketDataLine(line, lookup);
        if (fast !== undefined) expect({ value: fast }).toEqual(expected);
        if ('code' in expected) expect(fast).toBeUndefined();
      }),
      { numRuns: 600 },
    );
  });
});
