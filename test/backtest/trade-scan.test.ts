/**
 * The byte-level fast path of history lines (trade-scan.ts) against the full path (JSON.parse and the
 * strict codec), as properties: on lines written the way `history fetch` writes them (the family's trade
 * codec, both namings) with random ids, symbols (one not ASCII, one not in the header), sides, prices,
 * quantities, times, states and optional fields (texts full of quotes and key names, trace ids, leg
 * prices, metadata), the fast path either gives exactly the full path's facts or steps aside (NOT_SURE,
 * or UNKNOWN_SYMBOL where the full path refuses the symbol too); plain lines always take the fast path.
 * Timestamps with 0-9 fractional digits or an offset, and damaged lines, likewise.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeTradeLine } from '../../backtest/history/format.ts';
import { syntheticInstrument, syntheticTradeLine } from '../../backtest/tape/synthetic-history.ts';
import { TradeLineParser } from '../../backtest/tape/trade-line.ts';
import { newTradeFields, Scan, type TradeFields } from '../../backtest/tape/trade-scan.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import { familyA, gateway, scalesOf, TRADE_STATES, type Trade } from '../../src/domain/index.ts';
import { isTradebotError } from '../../src/errors.ts';

const SYMBOLS = ['SYN-A', 'ÉTÉ-B', 'X'];
const instruments = SYMBOLS.map((s) => syntheticInstrument(s));
const scales = new Map(instruments.map((i) => [i.symbol, scalesOf(i)]));
const lookup = (symbol: string) => scales.get(symbol) ?? scales.get('SYN-A');
const template: Trade = familyA.trade.decode(
  (JSON.parse(syntheticTradeLine('full', 1, 'SYN-A', true, 41, 3, '2026-11-30T14:00:01.250Z', 'TRADE_STATE_NEW')) as { trade: unknown })
    .trade,
  lookup,
);

type Outcome = { scan: Scan; fast: TradeFields; full: TradeFields | undefined; error: unknown };

function both(parser: TradeLineParser, line: string): Outcome {
  const bytes = Buffer.from(line, 'utf8');
  const fast = newTradeFields();
  const scan = parser.scanner.scan(bytes, 0, bytes.length, fast);
  const full = newTradeFields();
  try {
    parser.full(line, 2, full);
    return { scan, fast, full, error: undefined };
  } catch (error) {
    return { scan, fast, full: undefined, error };
  }
}

/** The fast path agrees with the full path, or steps aside. */
function expectAgreement(o: Outcome): void {
  if (o.scan === Scan.OK) {
    expect(o.error).toBeUndefined();
    expect(o.fast).toEqual(o.full);
  } else if (o.scan === Scan.UNKNOWN_SYMBOL) {
    expect(isTradebotError(o.error) && o.error.code).toBe('BACKTEST_UNKNOWN_SYMBOL');
  }
}

/**
 * On a damaged line: whenever both paths read it, the same facts. (The fast path reads only the fields it
 * needs, so damage elsewhere, e.g. in the passive execution, goes unseen: it may read a line JSON.parse
 * refuses. Damage to the fields it reads makes it step aside.)
 */
function expectAgreementWhenBothRead(o: Outcome): void {
  if (o.scan === Scan.OK && o.error === undefined) expect(o.fast).toEqual(o.full);
  if (o.scan === Scan.UNKNOWN_SYMBOL && o.error !== undefined)
    expect(isTradebotError(o.error) && o.error.code).toMatch(/BACKTEST_(UNKNOWN_SYMBOL|BAD_LINE)/);
}

const tricky = fc.oneof(
  fc.string(),
  fc.constantFrom(
    '"symbol":"SYN-A","side":"SIDE_BUY"',
    '"lastPx":"7","lastShares":"9"',
    '"transactTime":"2026-01-01T00:00:00Z"},"passive":{',
    '"state":"TRADE_STATE_BUSTED"',
    '\\',
    '}}',
    '{"a":[',
  ),
);

const tradeArb = fc.record({
  id: fc.oneof(fc.stringMatching(/^T[0-9]{1,20}$/), fc.string({ minLength: 1 })),
  symbol: fc.constantFrom(...SYMBOLS, 'NOT-IN-HEADER'),
  buy: fc.boolean(),
  price: fc.integer({ min: 1, max: 99 }),
  qty: fc.integer({ min: 0, max: 100_000 }),
  time: fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2099, 11, 31) }),
  state: fc.constantFrom(...TRADE_STATES),
  clordId: fc.option(tricky, { nil: undefined }),
  execText: fc.option(tricky, { nil: undefined }),
  traceId: fc.option(fc.string(), { nil: undefined }),
  tradeText: fc.option(tricky, { nil: undefined }),
  legs: fc.boolean(),
  metadata: fc.option(fc.dictionary(fc.constantFrom('state', 'symbol', 'x'), fc.constantFrom('TRADE_STATE_BUSTED', 'SYN-A', '1')), {
    nil: undefined,
  }),
});

type TradeCase = typeof tradeArb extends fc.Arbitrary<infer T> ? T : never;

function build(c: TradeCase): { trade: Trade; plain: boolean } {
  const order = {
    ...template.aggressor.order,
    symbol: c.symbol,
    side: c.buy ? 'SIDE_BUY' : 'SIDE_SELL',
    ...(c.clordId === undefined ? {} : { clordId: c.clordId }),
  } as Trade['aggressor']['order'];
  const aggressor: Trade['aggressor'] = {
    ...template.aggressor,
    order,
    lastPx: new Decimal(c.price).div(100),
    lastShares: new Decimal(c.qty),
    transactTime: c.time,
    ...(c.execText === undefined ? {} : { text: c.execText }),
    ...(c.traceId === undefined ? {} : { traceId: c.traceId }),
    ...(c.legs
      ? {
          legPrices: [
            {
              symbol: 'SYN-A',
              anchor: true,
              px: new Decimal('0.4'),
              qty: new Decimal(1),
              referencePx: new Decimal('0.4'),
              side: 'SIDE_BUY' as const,
            },
          ],
        }
      : {}),
  };
  const passive: Trade['passive'] = { ...template.passive, order: { ...template.passive.order, symbol: c.symbol }, transactTime: c.time };
  const trade: Trade = {
    ...template,
    id: c.id,
    state: c.state,
    aggressor,
    passive,
    ...(c.tradeText === undefined ? {} : { text: c.tradeText }),
    ...(c.metadata === undefined ? {} : { metadata: c.metadata }),
  };
  const plain =
    /^[ -~]+$/.test(c.id) &&
    !c.id.includes('\\') &&
    !c.id.includes('"') &&
    c.qty > 0 &&
    !c.legs &&
    c.metadata === undefined &&
    c.tradeText === undefined &&
    c.state !== 'TRADE_STATE_UNDEFINED' &&
    c.symbol !== 'NOT-IN-HEADER';
  return { trade, plain };
}

function lineOf(source: 'familyA' | 'gateway', trade: Trade): string {
  const codec = source === 'gateway' ? gateway.trade : familyA.trade;
  return encodeTradeLine(
    codec.encode(trade, lookup(trade.aggressor.order.symbol) ?? scalesOf(instruments[0] as (typeof instruments)[number])) as Record<
      string,
      unknown
    >,
  ).trimEnd();
}

describe('trade line fast path (bytes) against the full parser', () => {
  for (const source of ['familyA', 'gateway'] as const) {
    it(`agrees on codec-written ${source} lines, and reads every plain one itself`, () => {
      const parser = new TradeLineParser(source, instruments, 'f', 'full');
      fc.assert(
        fc.property(tradeArb, (c) => {
          const { trade, plain } = build(c);
          const outcome = both(parser, lineOf(source, trade));
          expectAgreement(outcome);
          if (plain) expect(outcome.scan).toBe(Scan.OK);
        }),
        { numRuns: 400 },
      );
    });
  }

  it('reads a symbol not in the header as UNKNOWN_SYMBOL, like the full path', () => {
    const parser = new TradeLineParser('familyA', instruments, 'f', 'full');
    const outcome = both(
      parser,
      lineOf(
        'familyA',
        build({
          id: 'T1',
          symbol: 'NOT-IN-HEADER',
          buy: true,
          price: 41,
          qty: 3,
          time: Date.UTC(2026, 0, 1),
          state: 'TRADE_STATE_NEW',
          clordId: undefined,
          execText: undefined,
          traceId: undefined,
          tradeText: undefined,
          legs: false,
          metadata: undefined,
        }).trade,
      ),
    );
    expect(outcome.scan).toBe(Scan.UNKNOWN_SYMBOL);
    expectAgreement(outcome);
  });

  it('agrees on timestamps with 0 to 9 fractional digits, and steps aside for offsets and bad ones', () => {
    const parser = new TradeLineParser('familyA', instruments, 'f', 'full');
    const base = syntheticTradeLine('full', 7, 'SYN-A', false, 41, 3, '@', 'TRADE_STATE_NEW').trimEnd();
    const stamps = [
      '2026-11-30T14:00:01Z',
      '2026-11-30T14:00:01.5Z',
      '2026-11-30T14:00:01.25Z',
      '2026-11-30T14:00:01.250Z',
      '2026-11-30T14:00:01.2501Z',
      '2026-11-30T14:00:01.123456789Z',
    ];
    for (const stamp of stamps) {
      const outcome = both(parser, base.replaceAll('@', stamp));
      expect(outcome.scan).toBe(Scan.OK);
      expectAgreement(outcome);
    }
    for (const stamp of [
      '2026-11-30T14:00:01+01:00',
      '2026-11-30T14:00:01.Z',
      '2026-11-30T14:00:01.1234567890Z',
      '2026-02-30T14:00:01Z',
      '2026-11-30T24:00:01Z',
      '2026-11-30 14:00:01Z',
    ]) {
      const outcome = both(parser, base.replaceAll('@', stamp));
      expect(outcome.scan).toBe(Scan.NOT_SURE);
    }
  });

  it('agrees on damaged lines whenever both paths read them', () => {
    const parser = new TradeLineParser('familyA', instruments, 'f', 'full');
    const line = syntheticTradeLine('full', 7, 'SYN-A', true, 41, 3, '2026-11-30T14:00:01.250Z', 'TRADE_STATE_NEW').trimEnd();
    let agreed = 0;
    const edit = fc.record({
      at: fc.nat({ max: line.length }),
      cut: fc.nat({ max: 40 }),
      insert: fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('"', '\\', '{', '}', ',"x":1', '0', ' ')),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        let damaged = line;
        for (const e of edits)
          damaged = damaged.slice(0, Math.min(e.at, damaged.length)) + e.insert + damaged.slice(Math.min(e.at, damaged.length) + e.cut);
        const outcome = both(parser, damaged);
        expectAgreementWhenBothRead(outcome);
        if (outcome.scan === Scan.OK && outcome.error === undefined) agreed++;
      }),
      { numRuns: 1000 },
    );
    // some damage keeps the line valid JSON (the property above must have had cases to check)
    expect(agreed).toBeGreaterThan(10);
  });
});
