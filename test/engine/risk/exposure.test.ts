/**
 * ExposureView against a plain model: positions and open orders summed per (symbol, account) from the lists
 * on every question. The view sums the first few pairs it is asked about on demand and all of them in one pass
 * after that (or when it lists an account's symbols), so the property asks its questions in a random order,
 * over more pairs than it sums lazily, with the symbol listing at a random point, and every answer must be the
 * model's whichever path gave it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maxDecimal, ZERO, type Decimal } from '../../../src/domain/decimal.ts';
import type { IntentSide } from '../../../src/engine/intents.ts';
import type { OrderCandidate } from '../../../src/engine/risk/candidate.ts';
import { ExposureView } from '../../../src/engine/risk/exposure.ts';
import type { RiskOpenOrder, RiskPosition } from '../../../src/engine/risk/index.ts';
import { ACCOUNT, OTHER_ACCOUNT, context, d } from './helpers.ts';

const SYMBOLS = ['A', 'B', 'C', 'D', 'E', 'F'];
const ACCOUNTS = [ACCOUNT, OTHER_ACCOUNT];
const SIDES: readonly IntentSide[] = ['BUY', 'SELL'];

const sumOf = (values: readonly Decimal[]): Decimal => values.reduce((a, b) => a.plus(b), ZERO);

/** The model: everything summed from the lists on each question. */
function model(positions: readonly RiskPosition[], orders: readonly RiskOpenOrder[]) {
  const position = (symbol: string, account: string) =>
    sumOf(positions.filter((p) => p.symbol === symbol && p.account === account).map((p) => p.qty));
  const open = (symbol: string, account: string, side: IntentSide, excluding?: RiskOpenOrder) =>
    sumOf(orders.filter((o) => o.symbol === symbol && o.account === account && o.side === side && o !== excluding).map((o) => o.leavesQty));
  return {
    position,
    open,
    worstAbs(symbol: string, account: string, candidate?: OrderCandidate): Decimal {
      const applies = candidate !== undefined && candidate.symbol === symbol && candidate.account === account;
      let buys = open(symbol, account, 'BUY', applies ? candidate.replaces : undefined);
      let sells = open(symbol, account, 'SELL', applies ? candidate.replaces : undefined);
      if (applies && candidate.side === 'BUY') buys = buys.plus(candidate.qty);
      if (applies && candidate.side === 'SELL') sells = sells.plus(candidate.qty);
      const held = position(symbol, account);
      return maxDecimal(held.plus(buys), sells.minus(held), ZERO);
    },
    symbolsOf: (account: string) => new Set([...positions, ...orders].filter((x) => x.account === account).map((x) => x.symbol)),
  };
}

const qty = fc.integer({ min: -30, max: 30 }).map((n) => d(n));
const leaves = fc.integer({ min: 1, max: 30 }).map((n) => d(n));
const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);

const positionArb = fc.record({ symbol: pick(SYMBOLS), account: pick(ACCOUNTS), qty });
const orderArb = fc.record({ symbol: pick(SYMBOLS), account: pick(ACCOUNTS), side: pick(SIDES), leavesQty: leaves });
const question = fc.record({ symbol: pick(SYMBOLS), account: pick(ACCOUNTS), side: pick(SIDES), withCandidate: fc.boolean(), qty: leaves });

describe('ExposureView', () => {
  it('answers like sums over the lists, whichever pairs are asked first and whenever symbols are listed', () => {
    fc.assert(
      fc.property(
        fc.array(positionArb, { maxLength: 8 }),
        fc.array(orderArb, { maxLength: 12 }),
        fc.array(question, { minLength: 1, maxLength: 14 }),
        fc.nat({ max: 14 }),
        (positionSpecs, orderSpecs, questions, listAt) => {
          const positions: RiskPosition[] = positionSpecs;
          const orders: RiskOpenOrder[] = orderSpecs.map((o, i) => ({ ...o, clordId: `c${i}`, price: d('0.5') }));
          const view = new ExposureView(context({ positions, openOrders: orders }));
          const ref = model(positions, orders);
          questions.forEach((q, i) => {
            if (i === listAt) {
              for (const account of ACCOUNTS) expect(new Set(view.symbolsOf(account))).toEqual(ref.symbolsOf(account));
            }
            const replaces = orders.find((o) => o.symbol === q.symbol && o.account === q.account && o.side === q.side);
            const candidate: OrderCandidate | undefined = q.withCandidate
              ? { symbol: q.symbol, side: q.side, qty: q.qty, price: d('0.5'), account: q.account, replaces, rests: true, qtyChanged: true }
              : undefined;
            expect(view.position(q.symbol, q.account).eq(ref.position(q.symbol, q.account))).toBe(true);
            expect(view.openQty(q.symbol, q.account, q.side, replaces).eq(ref.open(q.symbol, q.account, q.side, replaces))).toBe(true);
            expect(view.worstAbs(q.symbol, q.account, candidate).eq(ref.worstAbs(q.symbol, q.account, candidate))).toBe(true);
          });
          for (const account of ACCOUNTS) expect(new Set(view.symbolsOf(account))).toEqual(ref.symbolsOf(account));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the open order list it was built from', () => {
    const openOrders: RiskOpenOrder[] = [{ clordId: 'c1', symbol: 'A', side: 'BUY', price: d('0.4'), leavesQty: d(3), account: ACCOUNT }];
    expect(new ExposureView(context({ openOrders })).openOrders).toBe(openOrders);
  });
});
