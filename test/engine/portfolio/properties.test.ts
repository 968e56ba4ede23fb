// Property tests of the Portfolio's accounting: for random fill sequences over several accounts and
// symbols (decimal quantities, maker and taker fees, marks on some symbols, settlements), at any mark
//   cash + position value = starting cash + realized + unrealized - fees
// holds exactly for every account after every step; and a position that ends flat has realized exactly
// the sum of its sell notional minus its buy notional.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/domain/decimal.ts';
import { ACCOUNT, OTHER, d, identityGap, portfolio } from './fixtures.ts';

type Op =
  | { kind: 'fill'; account: string; symbol: string; side: 'BUY' | 'SELL'; qty: Decimal; price: Decimal; aggressor: boolean | undefined }
  | { kind: 'mark'; symbol: string; price: Decimal }
  | { kind: 'settle'; symbol: string; price: 0 | 1 };

const SYMBOLS = ['S1', 'S2', 'S3'];
const cents = fc.integer({ min: 0, max: 100 }).map((c) => new Decimal(c).div(100));

const fillArb: fc.Arbitrary<Op> = fc.record({
  kind: fc.constant('fill' as const),
  account: fc.constantFrom(ACCOUNT, OTHER),
  symbol: fc.constantFrom(...SYMBOLS),
  side: fc.constantFrom('BUY' as const, 'SELL' as const),
  qty: fc.integer({ min: 1, max: 5000 }).chain((n) => fc.constantFrom(new Decimal(n), new Decimal(n).div(100))),
  price: fc.integer({ min: 1, max: 99 }).map((c) => new Decimal(c).div(100)),
  aggressor: fc.constantFrom(true, false, undefined),
});

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 8, arbitrary: fillArb },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('mark' as const), symbol: fc.constantFrom(...SYMBOLS), price: cents }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      symbol: fc.constantFrom(...SYMBOLS),
      price: fc.constantFrom(0 as const, 1 as const),
    }),
  },
);

const feesArb = fc.record({ takerBps: fc.integer({ min: 0, max: 100 }), makerBps: fc.integer({ min: 0, max: 100 }) }).map((r) => ({
  takerBps: new Decimal(r.takerBps).div(4),
  makerBps: new Decimal(r.makerBps).div(4),
}));

describe('Portfolio properties', () => {
  it('the accounting identity holds exactly after every step and at any final marks', () => {
    fc.assert(
      fc.property(feesArb, fc.array(opArb, { maxLength: 60 }), fc.array(cents, { minLength: 3, maxLength: 3 }), (fees, ops, finalMarks) => {
        const { portfolio: p } = portfolio({ fees, startingCash: { [ACCOUNT]: d(1000), [OTHER]: d(0) } });
        let t = 0;
        for (const op of ops) {
          if (op.kind === 'fill') p.applyFill({ ...op, fillId: `F${t}`, time: t });
          else if (op.kind === 'mark') p.mark(op.symbol, op.price);
          else p.settle(op.symbol, op.price);
          t += 1;
          expect(identityGap(p, ACCOUNT).toFixed()).toBe('0');
          expect(identityGap(p, OTHER).toFixed()).toBe('0');
        }
        SYMBOLS.forEach((symbol, i) => p.mark(symbol, finalMarks[i] ?? ZERO));
        for (const account of [ACCOUNT, OTHER]) {
          expect(identityGap(p, account).toFixed()).toBe('0');
          const a = p.account(account);
          if (a === undefined) continue;
          // equity = cash + sum(qty x mark) by definition
          const value = a.positions.reduce((sum, pos) => sum.plus(pos.qty.times(pos.mark ?? ZERO)), ZERO);
          expect(a.equity.eq(a.cash.plus(value))).toBe(true);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("with the symbols' money places, every cost and PnL figure stays exact at them and the identity holds", () => {
    // prices in cents, quantities in hundredths: 4 money places
    const moneyDigits = Object.fromEntries(SYMBOLS.map((s) => [s, 4]));
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), fc.array(cents, { minLength: 3, maxLength: 3 }), (ops, finalMarks) => {
        const { portfolio: p } = portfolio({ moneyDigits, startingCash: { [ACCOUNT]: d(1000), [OTHER]: d(0) } });
        ops.forEach((op, t) => {
          if (op.kind === 'fill') p.applyFill({ ...op, fillId: `F${t}`, time: t });
          else if (op.kind === 'mark') p.mark(op.symbol, op.price);
          else p.settle(op.symbol, op.price);
        });
        SYMBOLS.forEach((symbol, i) => p.mark(symbol, finalMarks[i] ?? ZERO));
        for (const account of [ACCOUNT, OTHER]) {
          expect(identityGap(p, account).toFixed()).toBe('0');
          for (const pos of p.account(account)?.positions ?? [])
            for (const money of [pos.costBasis, pos.realizedPnl, pos.unrealizedPnl]) expect(money.decimalPlaces()).toBeLessThanOrEqual(4);
        }
        expect(p.snapshot().totals.netPnl.decimalPlaces()).toBeLessThanOrEqual(4);
      }),
      { numRuns: 200 },
    );
  });

  it('a position that ends flat has realized its sell notional minus its buy notional', () => {
    fc.assert(
      fc.property(fc.array(fillArb, { minLength: 1, maxLength: 30 }), (fills) => {
        const { portfolio: p } = portfolio();
        let net = ZERO;
        let flow = ZERO;
        fills.forEach((op, i) => {
          if (op.kind !== 'fill') return;
          const f = { ...op, account: ACCOUNT, symbol: 'S1' };
          p.applyFill({ ...f, fillId: `F${i}`, time: i });
          const signed = f.side === 'BUY' ? f.qty : f.qty.neg();
          net = net.plus(signed);
          flow = flow.minus(signed.times(f.price));
        });
        if (!net.isZero()) {
          p.applyFill({
            account: ACCOUNT,
            symbol: 'S1',
            side: net.isNegative() ? 'BUY' : 'SELL',
            qty: net.abs(),
            price: d('0.5'),
            time: 999,
          });
          flow = flow.plus(net.times('0.5'));
        }
        const pos = p.position(ACCOUNT, 'S1');
        expect(pos.qty.isZero() && pos.costBasis.isZero()).toBe(true);
        expect(pos.realizedPnl.toFixed()).toBe(flow.toFixed());
      }),
      { numRuns: 300 },
    );
  });
});
