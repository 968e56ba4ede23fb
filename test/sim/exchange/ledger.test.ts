/**
 * The simulator's ledger: cash and positions per account from fills and settlements. Positions carry the
 * net quantity (raw), the cost of the open position, the average entry price and realized PnL; every
 * amount is an exact Decimal. Settlement pays 1.00 (or 0.00) per contract and closes positions. A partial
 * close releases its share of the cost rounded to the money places, so cost and realized PnL never carry
 * more places than the instrument's money has, and cash, cost and realized PnL always reconcile exactly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import { instrumentScales } from '../../../src/domain/scales.ts';
import { Ledger, type LedgerPosition } from '../../../src/sim/exchange/ledger.ts';

const SCALES = instrumentScales(100, 1);
const TENTHS = instrumentScales(100, 10);
const A = 'firms/demo/accounts/a';
const B = 'firms/demo/accounts/b';
const SYM = 'RAIN';

const ledger = () => new Ledger(new Decimal('1000'));
const avg = (p: LedgerPosition) => (p.net === 0 ? new Decimal(0) : p.cost.div(Math.abs(p.net)));
const cash = (l: Ledger, account: string) => l.balance(account).cash.toFixed();

describe('Ledger fills', () => {
  it('starts every account at the starting balance with no positions', () => {
    const l = ledger();
    expect(cash(l, A)).toBe('1000');
    expect(l.balance(A).updateTime).toBe(0);
    expect(l.positionsOf(A)).toEqual([]);
  });

  it('a buy opens a long: cash down by the notional, cost = notional, avg entry = price', () => {
    const l = ledger();
    const p = l.fill(A, SYM, 10, 40, SCALES, 5);
    expect(p).toMatchObject({ account: A, symbol: SYM, net: 10, updateTime: 5 });
    expect(p.cost.toFixed()).toBe('4');
    expect(avg(p).toFixed()).toBe('0.4');
    expect(p.realizedPnl.toFixed()).toBe('0');
    expect(cash(l, A)).toBe('996');
    expect(l.balance(A).updateTime).toBe(5);
  });

  it('adding at another price averages the entry price', () => {
    const l = ledger();
    l.fill(A, SYM, 10, 40, SCALES, 1);
    const p = l.fill(A, SYM, 10, 50, SCALES, 2);
    expect(p.net).toBe(20);
    expect(p.cost.toFixed()).toBe('9');
    expect(avg(p).toFixed()).toBe('0.45');
    expect(cash(l, A)).toBe('991');
  });

  it('a partial close realizes PnL against the average and keeps the average of the rest', () => {
    const l = ledger();
    l.fill(A, SYM, 10, 40, SCALES, 1);
    l.fill(A, SYM, 10, 50, SCALES, 2);
    const p = l.fill(A, SYM, -5, 60, SCALES, 3);
    expect(p.net).toBe(15);
    expect(p.realizedPnl.toFixed()).toBe('0.75');
    expect(p.cost.toFixed()).toBe('6.75');
    expect(avg(p).toFixed()).toBe('0.45');
  });

  it('a round trip realizes the price difference and leaves a flat position with no cost', () => {
    const l = ledger();
    l.fill(A, SYM, 10, 40, SCALES, 1);
    const p = l.fill(A, SYM, -10, 55, SCALES, 2);
    expect(p.net).toBe(0);
    expect(p.cost.toFixed()).toBe('0');
    expect(p.realizedPnl.toFixed()).toBe('1.5');
    expect(cash(l, A)).toBe('1001.5');
  });

  it('a short round trip gains when bought back lower', () => {
    const l = ledger();
    l.fill(B, SYM, -10, 60, SCALES, 1);
    expect(cash(l, B)).toBe('1006');
    const short = l.position(B, SYM);
    expect(short.net).toBe(-10);
    expect(avg(short).toFixed()).toBe('0.6');
    const p = l.fill(B, SYM, 10, 45, SCALES, 2);
    expect(p.realizedPnl.toFixed()).toBe('1.5');
    expect(p.net).toBe(0);
    expect(cash(l, B)).toBe('1001.5');
  });

  it('flipping from long to short realizes the closed part and opens the rest at the fill price', () => {
    const l = ledger();
    l.fill(A, SYM, 15, 45, SCALES, 1);
    const p = l.fill(A, SYM, -20, 60, SCALES, 2);
    expect(p.net).toBe(-5);
    expect(p.realizedPnl.toFixed()).toBe('2.25');
    expect(p.cost.toFixed()).toBe('3');
    expect(avg(p).toFixed()).toBe('0.6');
  });

  it('keeps positions per account and per symbol', () => {
    const l = ledger();
    l.fill(A, SYM, 3, 40, SCALES, 1);
    l.fill(A, 'SNOW', -2, 30, SCALES, 1);
    l.fill(B, SYM, -3, 40, SCALES, 1);
    expect(l.positionsOf(A).map((p) => [p.symbol, p.net])).toEqual([
      [SYM, 3],
      ['SNOW', -2],
    ]);
    expect(l.positionsOf(B).map((p) => [p.symbol, p.net])).toEqual([[SYM, -3]]);
  });

  it('uses the quantity scale: raw 15 at fractional scale 10 is 1.5 contracts', () => {
    const l = ledger();
    const p = l.fill(A, SYM, 15, 40, TENTHS, 1);
    expect(p.cost.toFixed()).toBe('0.6');
    expect(cash(l, A)).toBe('999.4');
  });

  it('stays exact over many small fills (no float drift)', () => {
    const l = ledger();
    for (let i = 0; i < 100; i++) l.fill(A, SYM, 1, 1, SCALES, i);
    for (let i = 0; i < 100; i++) l.fill(A, SYM, -1, 2, SCALES, 100 + i);
    expect(l.position(A, SYM).realizedPnl.toFixed()).toBe('1');
    expect(cash(l, A)).toBe('1001');
  });
});

describe('Ledger settlement', () => {
  it('credits 1.00 per long contract at settlement 1 and closes the position', () => {
    const l = ledger();
    l.fill(A, SYM, 10, 40, SCALES, 1);
    const settled = l.settle(SYM, new Decimal(1), SCALES, 9);
    expect(settled.map((p) => p.account)).toEqual([A]);
    expect(cash(l, A)).toBe('1006');
    const p = l.position(A, SYM);
    expect(p).toMatchObject({ net: 0, updateTime: 9 });
    expect(p.cost.toFixed()).toBe('0');
    expect(p.realizedPnl.toFixed()).toBe('6');
  });

  it('pays nothing for a long at settlement 0: the cost is the loss', () => {
    const l = ledger();
    l.fill(A, SYM, 10, 40, SCALES, 1);
    l.settle(SYM, new Decimal(0), SCALES, 9);
    expect(cash(l, A)).toBe('996');
    expect(l.position(A, SYM).realizedPnl.toFixed()).toBe('-4');
  });

  it('charges a short 1.00 per contract at settlement 1', () => {
    const l = ledger();
    l.fill(A, SYM, 10, 40, SCALES, 1);
    l.fill(B, SYM, -10, 40, SCALES, 1);
    l.settle(SYM, new Decimal(1), SCALES, 9);
    expect(cash(l, B)).toBe('994');
    expect(l.position(B, SYM).realizedPnl.toFixed()).toBe('-6');
    // the two sides net to zero: money is only moved between them
    expect(l.balance(A).cash.plus(l.balance(B).cash).toFixed()).toBe('2000');
  });

  it('adds settlement PnL to PnL already realized, and skips flat positions and other symbols', () => {
    const l = ledger();
    l.fill(A, SYM, 10, 40, SCALES, 1);
    l.fill(A, SYM, -5, 50, SCALES, 2);
    l.fill(B, SYM, 2, 40, SCALES, 1);
    l.fill(B, SYM, -2, 40, SCALES, 2);
    l.fill(B, 'SNOW', 4, 30, SCALES, 2);
    const settled = l.settle(SYM, new Decimal(1), SCALES, 9);
    expect(settled.map((p) => p.account)).toEqual([A]);
    expect(l.position(A, SYM).realizedPnl.toFixed()).toBe('3.5');
    expect(l.position(B, 'SNOW').net).toBe(4);
  });

  it('a second settlement of the same symbol credits nothing more', () => {
    const l = ledger();
    l.fill(A, SYM, 10, 40, SCALES, 1);
    l.settle(SYM, new Decimal(1), SCALES, 9);
    expect(l.settle(SYM, new Decimal(1), SCALES, 10)).toEqual([]);
    expect(cash(l, A)).toBe('1006');
  });
});

describe('Ledger amounts', () => {
  it('a partial close of a position at a price average releases cost rounded to cents, not a repeating decimal', () => {
    const l = ledger();
    l.fill(A, SYM, 1, 41, SCALES, 1);
    l.fill(A, SYM, 1, 41, SCALES, 2);
    l.fill(A, SYM, 1, 42, SCALES, 3);
    const p = l.fill(A, SYM, -1, 50, SCALES, 4);
    // the average is 0.41333..., a third of the cost 1.24 is 0.41333... released as 0.41
    expect([p.cost.toFixed(), p.realizedPnl.toFixed()]).toEqual(['0.83', '0.09']);
  });

  it('keeps cost and realized PnL to the money places, and cash = start - signed cost + realized, for any fills', () => {
    const fill = fc.record({ qty: fc.integer({ min: -40, max: 40 }).filter((q) => q !== 0), price: fc.integer({ min: 1, max: 99 }) });
    fc.assert(
      fc.property(fc.boolean(), fc.array(fill, { minLength: 1, maxLength: 40 }), (tenths, fills) => {
        const scales = tenths ? TENTHS : SCALES;
        const places = scales.priceDigits + scales.qtyDigits;
        const l = ledger();
        let p: LedgerPosition | undefined;
        for (const [i, f] of fills.entries()) p = l.fill(A, SYM, f.qty, f.price, scales, i);
        if (p === undefined) return;
        expect(p.cost.decimalPlaces()).toBeLessThanOrEqual(places);
        expect(p.realizedPnl.decimalPlaces()).toBeLessThanOrEqual(places);
        expect(p.cost.isNegative()).toBe(false);
        const signedCost = p.net < 0 ? p.cost.neg() : p.cost;
        expect(l.balance(A).cash.toFixed()).toBe(new Decimal('1000').minus(signedCost).plus(p.realizedPnl).toFixed());
        if (p.net === 0) expect(p.cost.isZero()).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
