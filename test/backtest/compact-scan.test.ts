/**
 * The byte-level fast path of compact history lines (compact-scan.ts) against their full path (JSON.parse
 * and strict validation, trade-line.ts), as properties: on lines written the way `history fetch` writes them
 * (history/compact-trade.ts) with random ids, symbols (one not ASCII, one not in the header), instruments of
 * several scales, prices, quantities (zero included), sides, times and states, the fast path either gives
 * exactly the full path's facts or steps aside; plain lines always take the fast path. Other layouts (key
 * order, spaces, trailing zeros, negative prices, offsets) and damaged lines likewise; what the full path
 * refuses is a typed error naming file:line and the field.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeCompactTradeLine, type CompactTrade } from '../../backtest/history/compact-trade.ts';
import { syntheticCompactLine, syntheticInstrument } from '../../backtest/tape/synthetic-history.ts';
import { TradeLineParser } from '../../backtest/tape/trade-line.ts';
import { newTradeFields, Scan, type TradeFields } from '../../backtest/tape/trade-scan.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import { TRADE_STATES, type Instrument } from '../../src/domain/index.ts';
import { isTradebotError } from '../../src/errors.ts';

/** Price scale 100 / quantity scale 1, a non-ASCII symbol, and one at price scale 10^4 / quantity scale 100. */
const instruments: Instrument[] = [
  syntheticInstrument('SYN-A'),
  syntheticInstrument('ÉTÉ-B'),
  { ...syntheticInstrument('FRAC'), priceScale: 10_000, fractionalQtyScale: 100 },
];
const digits: Record<string, { price: number; qty: number }> = {
  'SYN-A': { price: 2, qty: 0 },
  'ÉTÉ-B': { price: 2, qty: 0 },
  FRAC: { price: 4, qty: 2 },
  'NOT-IN-HEADER': { price: 2, qty: 0 },
};
const parser = new TradeLineParser('familyA', instruments, 'data.jsonl', 'compact');

type Outcome = { scan: Scan; fast: TradeFields; full: TradeFields | undefined; error: unknown };

function both(line: string): Outcome {
  const bytes = Buffer.from(line, 'utf8');
  const fast = newTradeFields();
  const scan = parser.scanner.scan(bytes, 0, bytes.length, fast);
  const full = newTradeFields();
  try {
    parser.full(line, 12, full);
    return { scan, fast, full, error: undefined };
  } catch (error) {
    return { scan, fast, full: undefined, error };
  }
}

function expectAgreement(o: Outcome): void {
  expect(o.scan).not.toBe(Scan.UNKNOWN_SYMBOL); // the full path names an unknown symbol
  if (o.scan === Scan.OK) {
    expect(o.error).toBeUndefined();
    expect(o.fast).toEqual(o.full);
  }
}

function fullError(line: string): { code: string; message: string } {
  const o = both(line);
  expect(o.scan).not.toBe(Scan.OK);
  if (!isTradebotError(o.error)) throw new Error(`expected a TradebotError for ${line}, got ${String(o.error)}`);
  return { code: o.error.code, message: o.error.message };
}

const tradeArb = fc.record({
  id: fc.oneof(fc.stringMatching(/^T[0-9]{1,20}$/), fc.string({ minLength: 1 })),
  symbol: fc.constantFrom('SYN-A', 'ÉTÉ-B', 'FRAC', 'NOT-IN-HEADER'),
  buy: fc.boolean(),
  price: fc.oneof(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 0, max: 10 ** 9 })),
  qty: fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 10 ** 9 })),
  time: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }),
  state: fc.constantFrom(...TRADE_STATES),
});

type TradeCase = typeof tradeArb extends fc.Arbitrary<infer T> ? T : never;

function build(c: TradeCase): { trade: CompactTrade; plain: boolean } {
  const d = digits[c.symbol] as { price: number; qty: number };
  const trade: CompactTrade = {
    id: c.id,
    symbol: c.symbol,
    price: new Decimal(c.price).div(10 ** d.price),
    qty: new Decimal(c.qty).div(10 ** d.qty),
    side: c.buy ? 'BUY' : 'SELL',
    time: c.time,
    state: c.state,
  };
  const plain = /^[ -~]+$/.test(c.id) && !c.id.includes('\\') && !c.id.includes('"') && c.symbol !== 'NOT-IN-HEADER';
  return { trade, plain };
}

describe('compact line fast path (bytes) against the full path', () => {
  it('agrees on written lines, and reads every plain one itself', () => {
    fc.assert(
      fc.property(tradeArb, (c) => {
        const { trade, plain } = build(c);
        const outcome = both(encodeCompactTradeLine(trade).trimEnd());
        expectAgreement(outcome);
        if (plain) {
          expect(outcome.scan).toBe(Scan.OK);
          expect(outcome.fast).toMatchObject({
            sym: instruments.findIndex((i) => i.symbol === c.symbol),
            price: c.price,
            qty: c.qty,
            buy: c.buy,
            time: c.time,
            stands: c.state !== 'TRADE_STATE_BUSTED' && c.state !== 'TRADE_STATE_REJECTED',
          });
        }
        if (c.symbol === 'NOT-IN-HEADER') expect(isTradebotError(outcome.error) && outcome.error.code).toBe('BACKTEST_UNKNOWN_SYMBOL');
      }),
      { numRuns: 600 },
    );
  });

  it("reads the synthetic writer's lines (bench and tests) like the history writer's", () => {
    const line = syntheticCompactLine(7, 'SYN-A', false, 41, 3, '2026-11-30T14:00:01.250Z', 'TRADE_STATE_BUSTED').trimEnd();
    expect(line).toBe(
      encodeCompactTradeLine({
        id: 'T0000000000000007',
        symbol: 'SYN-A',
        price: new Decimal('0.41'),
        qty: new Decimal(3),
        side: 'SELL',
        time: Date.UTC(2026, 10, 30, 14, 0, 1, 250),
        state: 'TRADE_STATE_BUSTED',
      }).trimEnd(),
    );
    const outcome = both(line);
    expect(outcome.scan).toBe(Scan.OK);
    expectAgreement(outcome);
    expect(outcome.fast).toMatchObject({
      sym: 0,
      price: 41,
      qty: 3,
      buy: false,
      time: Date.UTC(2026, 10, 30, 14, 0, 1, 250),
      stands: false,
    });
  });

  it('steps aside for other layouts, which the full path reads the same', () => {
    const line = syntheticCompactLine(7, 'FRAC', true, 41, 3, '2026-11-30T14:00:01.250Z', 'TRADE_STATE_NEW').trimEnd();
    const json = JSON.parse(line) as Record<string, string>;
    const { id, ...rest } = json;
    const variants = [
      JSON.stringify({ ...rest, id }), // key order
      JSON.stringify(json, null, 1), // spaces and line breaks
      line.replace('"price":"0.41"', '"price":"0.4100"'), // trailing zeros within the scale
      line.replace('"T0000000000000007"', '"T\\u0030000000000000007"'), // an escape
      line.replace('14:00:01.250Z', '15:00:01.25+01:00'), // an offset
    ];
    for (const variant of variants) {
      const outcome = both(variant);
      expect(outcome.error).toBeUndefined();
      expect(outcome.full).toMatchObject({
        sym: 2,
        price: 4100,
        qty: 300,
        buy: true,
        time: Date.UTC(2026, 10, 30, 14, 0, 1, 250),
        stands: true,
      });
      if (variant !== variants[2]) expect(outcome.scan).toBe(Scan.NOT_SURE);
      else expectAgreement(outcome);
    }
    const negative = both(line.replace('"price":"0.41"', '"price":"-0.41"'));
    expect(negative.scan).toBe(Scan.NOT_SURE);
    expect(negative.full).toMatchObject({ price: -4100 });
  });

  it('agrees on timestamps with 0 to 9 fractional digits', () => {
    for (const stamp of [
      '2026-11-30T14:00:01Z',
      '2026-11-30T14:00:01.5Z',
      '2026-11-30T14:00:01.25Z',
      '2026-11-30T14:00:01.2501Z',
      '2026-11-30T14:00:01.123456789Z',
    ]) {
      const outcome = both(syntheticCompactLine(7, 'SYN-A', false, 41, 3, stamp, 'TRADE_STATE_NEW').trimEnd());
      expect(outcome.scan).toBe(Scan.OK);
      expectAgreement(outcome);
    }
  });

  it('agrees on runs of times in one minute and across minutes, days and years (the minute it keeps)', () => {
    const own = new TradeLineParser('familyA', instruments, 'data.jsonl', 'compact');
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(2999, 0, 1) }),
        fc.array(fc.integer({ min: 0, max: 90_000 }), { minLength: 1, maxLength: 40 }),
        (from, steps) => {
          let time = from;
          for (const step of steps) {
            time += step;
            const line = syntheticCompactLine(1, 'SYN-A', true, 41, 3, new Date(time).toISOString(), 'TRADE_STATE_NEW').trimEnd();
            const bytes = Buffer.from(line);
            const fast = newTradeFields();
            expect(own.scanner.scan(bytes, 0, bytes.length, fast)).toBe(Scan.OK);
            expect(fast.time).toBe(time);
          }
        },
      ),
      { numRuns: 300 },
    );
    for (const iso of [
      '1969-12-31T23:59:58.500Z',
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00.000Z',
      '2026-12-31T23:59:59.999Z',
      '2027-01-01T00:00:00.000Z',
      '2027-01-01T00:00:59.001Z',
    ]) {
      const outcome = both(syntheticCompactLine(1, 'SYN-A', true, 41, 3, iso, 'TRADE_STATE_NEW').trimEnd());
      expect(outcome.scan).toBe(Scan.OK);
      expect(outcome.fast.time).toBe(Date.parse(iso));
      expectAgreement(outcome);
    }
    // a canonical-length time that is not one, in the minute just read: steps aside
    for (const bad of ['2027-01-01T00:00:60.000Z', '2027-01-01T00:00:5x.000Z', '2027-01-01T00:00:59,000Z', '2027-01-01T00:00:59.000z']) {
      expect(both(syntheticCompactLine(1, 'SYN-A', true, 41, 3, bad, 'TRADE_STATE_NEW').trimEnd()).scan).toBe(Scan.NOT_SURE);
    }
  });

  it('agrees on damaged lines whenever both paths read them', () => {
    const line = syntheticCompactLine(7, 'FRAC', true, 4101, 3, '2026-11-30T14:00:01.250Z', 'TRADE_STATE_NEW').trimEnd();
    let agreed = 0;
    const edit = fc.record({
      at: fc.nat({ max: line.length }),
      cut: fc.nat({ max: 12 }),
      insert: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('"', '\\', '{', '}', ',"x":"1"', '0', '.', '9', ' ', '-')),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        let damaged = line;
        for (const e of edits)
          damaged = damaged.slice(0, Math.min(e.at, damaged.length)) + e.insert + damaged.slice(Math.min(e.at, damaged.length) + e.cut);
        const o = both(damaged);
        // the compact fast path checks every byte of the line's layout: what it reads, the full path reads too
        if (o.scan === Scan.OK) {
          expect(o.error).toBeUndefined();
          expect(o.fast).toEqual(o.full);
          agreed++;
        }
        if (o.error !== undefined) expect(isTradebotError(o.error) && o.error.code).toMatch(/^BACKTEST_(BAD_LINE|UNKNOWN_SYMBOL)$/);
      }),
      { numRuns: 1500 },
    );
    expect(agreed).toBeGreaterThan(0);
  });

  it('refuses what is not a compact trade, naming file:line and the field', () => {
    const line = syntheticCompactLine(7, 'SYN-A', true, 41, 3, '2026-11-30T14:00:01.250Z', 'TRADE_STATE_NEW').trimEnd();
    const cases: [string, string][] = [
      [line.replace('"price":"0.41"', '"price":"0.415"'), 'price'], // not exact at price scale 100
      [line.replace('"price":"0.41"', '"price":0.41'), 'price'], // a JSON number
      [line.replace('"price":"0.41"', '"price":"00.41"'), 'price'],
      [line.replace('"qty":"3"', '"qty":"-3"'), 'qty'],
      [line.replace('"qty":"3"', '"qty":"1.5"'), 'qty'], // quantity scale 1
      [line.replace('"side":"BUY"', '"side":"SIDE_BUY"'), 'side'],
      [line.replace('"time":"2026-11-30T14:00:01.250Z"', '"time":"yesterday"'), 'time'],
      [line.replace('"state":"TRADE_STATE_NEW"', '"state":"NEW"'), 'state'],
      [line.replace(',"state":"TRADE_STATE_NEW"', ''), 'state'],
      [line.replace('"id":"T0000000000000007"', '"id":""'), 'id'],
      [line.replace('}', ',"venue":"X"}'), 'venue'],
      [line.replace('"type":"trade"', '"type":"header"'), 'type'],
      ['{"type":"trade","trade":{"id":"T1"}}', 'trade'], // a full-format line in a compact file
      ['{"type":"trade","id":', 'JSON'],
    ];
    for (const [bad, fieldName] of cases) {
      const error = fullError(bad);
      expect(error.code, bad).toBe('BACKTEST_BAD_LINE');
      expect(error.message, bad).toContain('data.jsonl:12: not a compact trade line: ');
      expect(error.message, bad).toContain(fieldName);
    }
    const unknown = fullError(line.replace('"SYN-A"', '"SYN-Z"'));
    expect(unknown.code).toBe('BACKTEST_UNKNOWN_SYMBOL');
    expect(unknown.message).toContain('data.jsonl:12: trade in SYN-Z');
  });
});
