// The OrderTracker's fills feed the Portfolio directly (its Fill satisfies PortfolioFill): duplicated and
// reordered executions still book each contract once, with the exchange's aggressor flag choosing the fee.
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { execution, fillExec, request } from '../orders/fixtures.ts';
import { ACCOUNT, SYMBOL, d, identityGap, installDecimalEquality } from './fixtures.ts';

installDecimalEquality();

describe('OrderTracker -> Portfolio', () => {
  it('books every filled contract once whatever the delivery order', () => {
    const clock = new VirtualClock(0);
    const tracker = new OrderTracker({ clock });
    const portfolio = new Portfolio({ clock, fees: { takerBps: d(10), makerBps: d(0) }, startingCash: { [ACCOUNT]: d(100) } });
    tracker.fills$.subscribe((fill) => portfolio.applyFill(fill));

    tracker.submitted(request({ qty: d(10), price: d('0.50') }));
    const e1 = execution('E1');
    const e2 = fillExec('E2', { cum: 4, lastPx: '0.48', lastShares: 4, avgPx: '0.48' }, {}, { aggressor: true });
    const e3 = fillExec('E3', {
      cum: 10,
      lastPx: '0.50',
      lastShares: 6,
      avgPx: '0.49',
      levels: [
        { px: d('0.48'), qty: d(4) },
        { px: d('0.50'), qty: d(6) },
      ],
    });
    for (const e of [e3, e1, e2, e3, e2]) tracker.applyExecution(e);
    tracker.acknowledged('c1', 'O1');

    expect(tracker.get('c1')).toMatchObject({ state: 'FILLED', filledQty: d(10) });
    // E3 arrived first: its increase of 10 is split by the levels (aggressor unknown: taker rate)
    expect(portfolio.position(ACCOUNT, SYMBOL)).toMatchObject({ qty: d(10), costBasis: d('4.92'), fillCount: 2, fees: d('0.00492') });
    portfolio.mark(SYMBOL, d('0.55'));
    expect(portfolio.position(ACCOUNT, SYMBOL).unrealizedPnl).toEqual(d('0.58'));
    expect(identityGap(portfolio, ACCOUNT)).toEqual(d(0));
  });
});
