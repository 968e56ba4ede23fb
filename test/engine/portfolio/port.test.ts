// The pipeline's PortfolioPort keeps positions and PnL until the portfolio changes: for random sequences of
// fills, marks, settlements and reconciliations its answers always equal the ones computed afresh from the
// Portfolio (snapshot totals, quantities), so the cache is exact; the daily PnL less what positions taken over
// at reconciliation were worth at their first mark.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/domain/decimal.ts';
import { portfolioPort } from '../../../src/engine/portfolio-port.ts';
import type { Fill } from '../../../src/engine/orders/index.ts';
import { ACCOUNT, OTHER, T0, balance, exchangePosition, portfolio } from './fixtures.ts';

const SYMBOLS = ['S1', 'S2'];
const price = fc.integer({ min: 1, max: 99 }).map((c) => new Decimal(c).div(100));

type Op =
  | { kind: 'fill'; account: string; symbol: string; side: 'BUY' | 'SELL'; qty: number; price: Decimal }
  | { kind: 'mark'; symbol: string; price: Decimal }
  | { kind: 'settle'; symbol: string; price: 0 | 1 }
  | { kind: 'reconcile'; symbol: string; qty: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('fill' as const),
      account: fc.constantFrom(ACCOUNT, OTHER),
      symbol: fc.constantFrom(...SYMBOLS),
      side: fc.constantFrom('BUY' as const, 'SELL' as const),
      qty: fc.integer({ min: 1, max: 20 }),
      price,
    }),
  },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('mark' as const), symbol: fc.constantFrom(...SYMBOLS), price }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('settle' as const),
      symbol: fc.constantFrom(...SYMBOLS),
      price: fc.constantFrom(0 as const, 1 as const),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('reconcile' as const),
      symbol: fc.constantFrom(...SYMBOLS),
      qty: fc.integer({ min: -10, max: 10 }),
    }),
  },
);

describe('portfolioPort', () => {
  it('answers positions, net positions and PnL exactly like the Portfolio after every change', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const { portfolio: p } = portfolio({ startingCash: {} });
        const port = portfolioPort(p);
        let n = 0;
        // the daily PnL leaves out what a position taken over at reconciliation was worth at its first mark
        let inherited = ZERO;
        const unmarked = new Set<string>();
        for (const op of ops) {
          // read first, so a stale cache would show in the comparison below
          port.dailyPnl();
          port.positions();
          port.position('S1');
          if (op.kind === 'fill') {
            const fill: Fill = {
              fillId: `F${++n}`,
              clordId: `c${n}`,
              orderId: undefined,
              account: op.account,
              symbol: op.symbol,
              side: op.side,
              qty: new Decimal(op.qty),
              price: op.price,
              fee: undefined,
              time: T0 + n,
              executionId: undefined,
              aggressor: false,
              priceSource: 'lastPx',
              intentId: undefined,
            };
            port.applyFill(fill);
          } else if (op.kind === 'mark') {
            const before = p.netPnl();
            port.mark(op.symbol, op.price);
            if (unmarked.delete(op.symbol)) inherited = inherited.plus(p.netPnl().minus(before));
          } else if (op.kind === 'settle') port.settle(op.symbol, new Decimal(op.price), T0);
          else {
            if (op.qty !== 0 && p.markOf(op.symbol) === undefined) unmarked.add(op.symbol);
            port.reconcile(
              [exchangePosition({ symbol: op.symbol, netPosition: new Decimal(op.qty), avgEntryPx: new Decimal('0.5'), costBasis: ZERO })],
              [balance({ balance: new Decimal(1000) })],
            );
          }
          const totals = p.snapshot().totals;
          // netPnl (kept per position between calls) is the plain fold over the positions, after every change
          let fold = ZERO;
          for (const account of p.snapshot().accounts)
            for (const q of account.positions) fold = fold.plus(q.realizedPnl).plus(q.marketValue.minus(q.costBasis)).minus(q.fees);
          expect(p.netPnl().toString()).toBe(fold.toString());
          // valuation: the snapshot's equity (same arithmetic) and its positions' quantities, in its order
          const snapshot = p.snapshot();
          const valuation = p.valuation();
          expect(valuation.equity.toString()).toBe(snapshot.totals.equity.toString());
          expect(valuation.equity.isNegative()).toBe(snapshot.totals.equity.isNegative());
          expect(valuation.positions.map((q) => `${q.account} ${q.symbol} ${q.qty.toString()}`)).toEqual(
            snapshot.accounts.flatMap((a) => a.positions.map((q) => `${a.account} ${q.symbol} ${q.qty.toString()}`)),
          );
          expect(port.dailyPnl().toString()).toBe(
            totals.realizedPnl.plus(totals.unrealizedPnl).minus(totals.fees).minus(inherited).toString(),
          );
          const fresh = p.quantities().filter((q) => !q.qty.isZero());
          expect(port.positions().map((q) => `${q.account} ${q.symbol} ${q.qty.toString()}`)).toEqual(
            fresh.map((q) => `${q.account} ${q.symbol} ${q.qty.toString()}`),
          );
          for (const symbol of SYMBOLS) {
            const sum = fresh.filter((q) => q.symbol === symbol).reduce((a, q) => a.plus(q.qty), ZERO);
            expect(port.position(symbol).toString()).toBe(sum.toString());
            expect(port.position(symbol, ACCOUNT).toString()).toBe(p.position(ACCOUNT, symbol).qty.toString());
          }
        }
      }),
    );
  });
});
