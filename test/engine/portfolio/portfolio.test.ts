// Portfolio behaviour: round trips, flips through zero, partial closes, fees, marks, settlement of long and
// short positions at 1 and 0, reversals, reconciliation differences, snapshots and change events.
import { describe, expect, it } from 'vitest';
import { PortfolioErrorCode, type PortfolioFill } from '../../../src/engine/portfolio/index.ts';
import { ACCOUNT, OTHER, SYMBOL, balance, d, exchangePosition, fill, identityGap, installDecimalEquality, portfolio } from './fixtures.ts';

installDecimalEquality();

describe('positions and realized PnL', () => {
  it('a buy then a sell realizes the exact PnL and leaves a flat position with zero cost', () => {
    const { portfolio: p } = portfolio();
    p.applyFill(fill('BUY', 10, '0.45'));
    p.applyFill(fill('SELL', 10, '0.52'));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({
      qty: d(0),
      costBasis: d(0),
      avgPx: d(0),
      realizedPnl: d('0.7'),
      unrealizedPnl: d(0),
      turnover: d('9.7'),
      fillCount: 2,
    });
    expect(p.account(ACCOUNT)).toMatchObject({ cash: d('1000.7'), equity: d('1000.7'), netPnl: d('0.7') });
  });

  it('a short then a cover realizes the exact PnL', () => {
    const { portfolio: p } = portfolio();
    p.applyFill(fill('SELL', 4, '0.60'));
    p.applyFill(fill('BUY', 4, '0.35'));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ qty: d(0), realizedPnl: d('1') });
    expect(p.account(ACCOUNT)?.cash).toEqual(d('1001'));
  });

  it('partial closes keep the average price', () => {
    const { portfolio: p } = portfolio();
    p.applyFill(fill('BUY', 10, '0.40'));
    p.applyFill(fill('BUY', 10, '0.50'));
    p.applyFill(fill('SELL', 5, '0.60'));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ qty: d(15), avgPx: d('0.45'), costBasis: d('6.75'), realizedPnl: d('0.75') });
    p.applyFill(fill('SELL', 12, '0.30'));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ qty: d(3), avgPx: d('0.45'), realizedPnl: d('-1.05') });
  });

  it('a partial close with a repeating average price releases its cost rounded to the money places: every figure stays exact', () => {
    // cents x whole contracts: 2 places. 3 bought for 0.32 in all; selling 1 releases 0.32 / 3 = 0.10666.. -> 0.11
    const { portfolio: p } = portfolio({ moneyDigits: { [SYMBOL]: 2 } });
    p.applyFill(fill('BUY', 1, '0.10'));
    p.applyFill(fill('BUY', 2, '0.11'));
    p.applyFill(fill('SELL', 1, '0.50'));
    p.mark(SYMBOL, d('0.47'));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({
      qty: d(2),
      costBasis: d('0.21'),
      realizedPnl: d('0.39'),
      unrealizedPnl: d('0.73'),
    });
    expect(identityGap(p, ACCOUNT)).toEqual(d(0));
    for (let i = 0; i < 200; i++) {
      p.applyFill(fill('BUY', 3, '0.33'));
      p.applyFill(fill('SELL', 2, '0.34'));
    }
    const pos = p.position(ACCOUNT, SYMBOL);
    for (const money of [pos.costBasis, pos.realizedPnl, pos.unrealizedPnl, p.snapshot().totals.netPnl, p.netPnl()])
      expect(money.decimalPlaces(), money.toString()).toBeLessThanOrEqual(2);
    expect(identityGap(p, ACCOUNT)).toEqual(d(0));
  });

  it('without the money places of a symbol, rounds a released cost to 18 places and stays consistent', () => {
    const { portfolio: p } = portfolio();
    p.applyFill(fill('BUY', 1, '0.10'));
    p.applyFill(fill('BUY', 2, '0.11'));
    p.applyFill(fill('SELL', 1, '0.50'));
    const pos = p.position(ACCOUNT, SYMBOL);
    expect(pos.qty).toEqual(d(2));
    expect(pos.costBasis).toEqual(d('0.213333333333333333'));
    expect(identityGap(p, ACCOUNT)).toEqual(d(0));
    p.applyFill(fill('SELL', 2, '0.50'));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ qty: d(0), costBasis: d(0), realizedPnl: d('1.18') });
  });

  it('a flip from long to short through zero realizes the long and opens the short at the fill price', () => {
    const { portfolio: p } = portfolio();
    p.applyFill(fill('BUY', 10, '0.50'));
    p.applyFill(fill('SELL', 15, '0.60'));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ qty: d(-5), avgPx: d('0.60'), costBasis: d('-3'), realizedPnl: d('1') });
    p.applyFill(fill('BUY', 8, '0.55'));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ qty: d(3), avgPx: d('0.55'), realizedPnl: d('1.25') });
  });
});

describe('fees', () => {
  it('charges taker bps on aggressor fills and maker bps otherwise, reducing cash and net PnL', () => {
    const { portfolio: p } = portfolio({ fees: { takerBps: d(20), makerBps: d(5) } });
    p.applyFill(fill('BUY', 100, '0.50', { aggressor: true }));
    p.applyFill(fill('SELL', 100, '0.60', { aggressor: false }));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ fees: d('0.13'), realizedPnl: d('10') });
    expect(p.account(ACCOUNT)).toMatchObject({ cash: d('1009.87'), netPnl: d('9.87'), fees: d('0.13') });
  });

  it('an unknown aggressor pays the taker rate; reported fees are used when asked for', () => {
    const { portfolio: p } = portfolio({ fees: { takerBps: d(10), makerBps: d(0) } });
    p.applyFill(fill('BUY', 10, '0.50', { aggressor: undefined }));
    expect(p.position(ACCOUNT, SYMBOL).fees).toEqual(d('0.005'));
    const { portfolio: q } = portfolio({ fees: { takerBps: d(10), makerBps: d(0) }, feeSource: 'reported' });
    q.applyFill(fill('BUY', 10, '0.50', { fee: d('0.02') }));
    q.applyFill(fill('BUY', 10, '0.50', { aggressor: true }));
    expect(q.position(ACCOUNT, SYMBOL).fees).toEqual(d('0.025'));
  });

  it('negative rates are refused', () => {
    expect(() => portfolio({ fees: { takerBps: d(-1), makerBps: d(0) } })).toThrow(
      expect.objectContaining({ code: PortfolioErrorCode.INVALID_OPTIONS }),
    );
  });
});

describe('marks and unrealized PnL', () => {
  it('values long and short positions at the mark', () => {
    const { portfolio: p } = portfolio();
    p.applyFill(fill('BUY', 10, '0.40'));
    p.applyFill(fill('SELL', 5, '0.70', { symbol: 'EVT-B' }));
    expect(p.position(ACCOUNT, SYMBOL).unrealizedPnl).toEqual(d(0));
    p.mark(SYMBOL, d('0.55'));
    p.mark('EVT-B', d('0.65'));
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ mark: d('0.55'), marketValue: d('5.5'), unrealizedPnl: d('1.5') });
    expect(p.position(ACCOUNT, 'EVT-B')).toMatchObject({ marketValue: d('-3.25'), unrealizedPnl: d('0.25') });
    expect(p.account(ACCOUNT)).toMatchObject({ equity: d('1001.75'), unrealizedPnl: d('1.75') });
    expect(identityGap(p, ACCOUNT)).toEqual(d(0));
  });

  it('a negative mark is refused', () => {
    const { portfolio: p } = portfolio();
    expect(() => p.mark(SYMBOL, d('-0.01'))).toThrow(expect.objectContaining({ code: PortfolioErrorCode.INVALID_MARK }));
  });
});

describe('settlement', () => {
  it.each([
    ['long', 'BUY', 1, '6', '1006'],
    ['long', 'BUY', 0, '-4', '996'],
    ['short', 'SELL', 1, '-6', '994'],
    ['short', 'SELL', 0, '4', '1004'],
  ] as const)('a %s position settled at %s realizes the difference to the settlement price', (_kind, side, price, realized, cash) => {
    const { portfolio: p, changes } = portfolio();
    p.applyFill(fill(side, 10, '0.40'));
    p.settle(SYMBOL, price);
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({
      qty: d(0),
      costBasis: d(0),
      realizedPnl: d(realized),
      unrealizedPnl: d(0),
      settledAt: d(price),
      fillCount: 1,
      turnover: d(4),
    });
    expect(p.account(ACCOUNT)).toMatchObject({ cash: d(cash), equity: d(cash) });
    expect(changes.at(-1)).toMatchObject({ cause: 'settle', account: ACCOUNT });
  });

  it('settles every account holding the symbol and refuses prices outside [0, 1]', () => {
    const { portfolio: p } = portfolio();
    p.applyFill(fill('BUY', 1, '0.30'));
    p.applyFill(fill('SELL', 2, '0.30', { account: OTHER }));
    p.settle(SYMBOL, d(1));
    expect(p.position(OTHER, SYMBOL)).toMatchObject({ qty: d(0), realizedPnl: d('-1.4') });
    expect(() => p.settle(SYMBOL, d('1.01'))).toThrow(expect.objectContaining({ code: PortfolioErrorCode.INVALID_SETTLEMENT_PRICE }));
  });
});

describe('duplicates and reversals', () => {
  it('a fill id booked twice counts once', () => {
    const { portfolio: p } = portfolio();
    const f = fill('BUY', 10, '0.40');
    expect(p.applyFill(f)).toBe(true);
    expect(p.applyFill(f)).toBe(false);
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ qty: d(10), fillCount: 1 });
  });

  it('reversing a busted fill restores position, cash, fees and turnover', () => {
    const { portfolio: p } = portfolio({ fees: { takerBps: d(10), makerBps: d(10) } });
    const a = fill('BUY', 10, '0.40');
    p.applyFill(a);
    p.applyFill(fill('BUY', 5, '0.50'));
    const before = p.account(ACCOUNT);
    const b = fill('SELL', 3, '0.60');
    p.applyFill(b);
    expect(p.reverseFill(b)).toBe(true);
    expect(p.reverseFill(b)).toBe(false);
    expect(p.account(ACCOUNT)).toMatchObject({ cash: before?.cash, fees: before?.fees, turnover: before?.turnover, fillCount: 2 });
    expect(p.position(ACCOUNT, SYMBOL).qty).toEqual(d(15));
    expect(p.reverseFill(fill('BUY', 1, '0.1'))).toBe(false);
  });

  it('remembers the most recent fill ids only (fillIdMemory): memory does not grow with the fills', () => {
    const { portfolio: p } = portfolio({ fillIdMemory: 3 });
    const [f1, f2, f3, f4] = ['F1', 'F2', 'F3', 'F4'].map((fillId) => fill('BUY', 1, '0.40', { fillId }) as PortfolioFill);
    for (const f of [f1, f2, f3, f4]) expect(p.applyFill(f as PortfolioFill)).toBe(true);
    // F2..F4 are remembered: a duplicate is ignored and each can be reversed
    expect(p.applyFill(f4 as PortfolioFill)).toBe(false);
    expect(p.reverseFill(f3 as PortfolioFill)).toBe(true);
    expect(p.position(ACCOUNT, SYMBOL).qty).toEqual(d(3));
    // F1 left the window
    expect(p.reverseFill(f1 as PortfolioFill)).toBe(false);
  });

  it('an invalid fill is refused with a stable code', () => {
    const { portfolio: p } = portfolio();
    expect(() => p.applyFill(fill('BUY', 0, '0.40'))).toThrow(expect.objectContaining({ code: PortfolioErrorCode.INVALID_FILL }));
    expect(() => p.applyFill(fill('BUY', 1, '-0.40'))).toThrow(expect.objectContaining({ code: 'PORTFOLIO_INVALID_FILL' }));
  });
});

describe('reconcile', () => {
  it('trusts the exchange: sets positions and cash and returns the differences', () => {
    const { portfolio: p, changes } = portfolio();
    p.applyFill(fill('BUY', 10, '0.40'));
    p.applyFill(fill('SELL', 2, '0.50', { symbol: 'EVT-C' }));
    const result = p.reconcile(
      [
        exchangePosition({ netPosition: d(12), avgEntryPx: d('0.42'), costBasis: d('5.1') }),
        exchangePosition({ symbol: 'EVT-B', netPosition: d(-3), avgEntryPx: d('0.7') }),
      ],
      [balance({ balance: d('994.9') }), balance({ currency: 'EUR', balance: d(5) })],
    );
    expect(result.cash).toEqual([{ account: ACCOUNT, localCash: d('997'), exchangeCash: d('994.9') }]);
    expect(result.ignoredBalances).toEqual([{ account: ACCOUNT, currency: 'EUR' }]);
    expect(result.positions).toEqual([
      { account: ACCOUNT, symbol: SYMBOL, localQty: d(10), exchangeQty: d(12), localCost: d(4), exchangeCost: d('5.1') },
      { account: ACCOUNT, symbol: 'EVT-B', localQty: d(0), exchangeQty: d(-3), localCost: d(0), exchangeCost: d('-2.1') },
      { account: ACCOUNT, symbol: 'EVT-C', localQty: d(-2), exchangeQty: d(0), localCost: d(-1), exchangeCost: d(0) },
    ]);
    expect(p.position(ACCOUNT, SYMBOL)).toMatchObject({ qty: d(12), costBasis: d('5.1'), avgPx: d('0.425'), realizedPnl: d(0) });
    expect(p.position(ACCOUNT, 'EVT-C').qty).toEqual(d(0));
    // adjustments absorb the corrections: PnL does not jump, the identity holds
    expect(p.account(ACCOUNT)).toMatchObject({ cash: d('994.9'), adjustments: d('-2.1').plus('1.1').plus('-2.1').plus('1') });
    expect(identityGap(p, ACCOUNT)).toEqual(d(0));
    expect(changes.filter((c) => c.cause === 'reconcile').map((c) => c.position?.symbol)).toEqual([SYMBOL, 'EVT-B', 'EVT-C']);
  });

  it('takes the exchange cash as the starting point of an account whose cash was not known (no difference, no adjustment)', () => {
    const { portfolio: p, changes } = portfolio({ startingCash: {} });
    // a fill booked before the first reconciliation stays in the PnL
    p.applyFill(fill('BUY', 10, '0.40'));
    const first = p.reconcile(
      [exchangePosition({ netPosition: d(10), avgEntryPx: d('0.4'), costBasis: d(4) })],
      [balance({ balance: d('99996') })],
    );
    expect(first.cash).toEqual([]);
    expect(first.positions).toEqual([]);
    expect(p.account(ACCOUNT)).toMatchObject({ startingCash: d(100000), cash: d(99996), adjustments: d(0) });
    expect(identityGap(p, ACCOUNT)).toEqual(d(0));
    expect(changes.at(-1)).toMatchObject({ cause: 'reconcile', account: ACCOUNT, cash: d(99996) });
    // from then on a different exchange cash is a difference, absorbed as an adjustment
    const second = p.reconcile([], [balance({ balance: d('99990') })]);
    expect(second.cash).toEqual([{ account: ACCOUNT, localCash: d(99996), exchangeCash: d(99990) }]);
    expect(p.account(ACCOUNT)).toMatchObject({ startingCash: d(100000), cash: d(99990), adjustments: d(-6).minus(4) });
  });

  it('reports a configured starting cash that differs from the exchange at the first reconciliation', () => {
    const { portfolio: p } = portfolio();
    expect(p.reconcile([], [balance({ balance: d(100000) })]).cash).toEqual([
      { account: ACCOUNT, localCash: d(1000), exchangeCash: d(100000) },
    ]);
  });

  it('reports nothing when the books agree and leaves other accounts alone', () => {
    const { portfolio: p } = portfolio({ startingCash: { [ACCOUNT]: d(100), [OTHER]: d(50) } });
    p.applyFill(fill('BUY', 10, '0.40'));
    p.applyFill(fill('BUY', 1, '0.40', { account: OTHER }));
    const result = p.reconcile(
      [exchangePosition({ netPosition: d(10), avgEntryPx: d('0.4'), costBasis: d(4) })],
      [balance({ balance: d(96) })],
    );
    expect(result).toEqual({ positions: [], cash: [], ignoredBalances: [] });
    expect(p.position(OTHER, SYMBOL).qty).toEqual(d(1));
  });
});

describe('snapshots and changes', () => {
  it('snapshot() lists accounts and positions with totals, at clock time', () => {
    const { portfolio: p, clock } = portfolio({ startingCash: { [ACCOUNT]: d(100), [OTHER]: d(50) } });
    p.applyFill(fill('BUY', 10, '0.40'));
    p.applyFill(fill('SELL', 10, '0.40', { account: OTHER, aggressor: true }));
    p.mark(SYMBOL, d('0.5'));
    clock.advanceTo(clock.now() + 1000);
    const snap = p.snapshot();
    expect(snap.time).toBe(clock.now());
    expect(snap.currency).toBe('USD');
    expect(snap.accounts.map((a) => [a.account, a.equity.toFixed(), a.unrealizedPnl.toFixed()])).toEqual([
      [ACCOUNT, '101', '1'],
      [OTHER, '49', '-1'],
    ]);
    expect(snap.totals).toMatchObject({ startingCash: d(150), equity: d(150), netPnl: d(0), turnover: d(8), fillCount: 2 });
    expect(Object.isFrozen(snap)).toBe(true);
  });

  it('emits a change per fill and per mark of a held symbol', () => {
    const { portfolio: p, changes } = portfolio();
    const f = fill('BUY', 2, '0.40');
    p.applyFill(f);
    p.mark(SYMBOL, d('0.5'));
    p.mark(SYMBOL, d('0.5'));
    p.mark('EVT-Z', d('0.5'));
    expect(changes.map((c) => [c.cause, c.time, c.cash.toFixed(), c.position?.unrealizedPnl.toFixed()])).toEqual([
      ['fill', f.time, '999.2', '0'],
      ['mark', p.snapshot().time, '999.2', '0.2'],
    ]);
  });

  it("a change's position, read later, is the snapshot of the change's moment (and the same object on every read)", () => {
    const { portfolio: p, changes } = portfolio();
    const eager: unknown[] = [];
    p.changes$.subscribe((c) => eager.push(c.position === undefined ? undefined : p.position(c.account, c.position.symbol)));
    p.applyFill(fill('BUY', 2, '0.40'));
    p.mark(SYMBOL, d('0.5'));
    p.applyFill(fill('SELL', 1, '0.55'));
    p.mark(SYMBOL, d('0.45'));
    p.settle(SYMBOL, d('1'));
    expect(changes.map((c) => c.position)).toEqual(eager);
    expect(changes.map((c) => c.position)).toEqual(changes.map((c) => c.position));
    for (const c of changes) expect(c.position).toBe(c.position);
    expect(JSON.parse(JSON.stringify(changes[1]))).toMatchObject({ cause: 'mark', position: { symbol: SYMBOL, mark: '0.5' } });
  });
});
