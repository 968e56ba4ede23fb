/**
 * One risk check reads the context's open orders, positions and PnL once, however many rules ask (the
 * exposure view, the client-order-id check, the replace lookup, maxPosition, maxEventPosition, the daily
 * loss), and a later check reads them afresh: what was approved in between is seen.
 */
import { describe, expect, it } from 'vitest';
import type { RiskContext } from '../../../src/engine/risk/index.ts';
import { SYM, approvedOf, context, d, manager, openOrder, place, position, replace, refusedOf } from './helpers.ts';

function counted(inner: RiskContext) {
  const reads = { openOrders: 0, positions: 0, dailyPnl: 0 };
  const ctx: RiskContext = {
    ...inner,
    openOrders: () => {
      reads.openOrders += 1;
      return inner.openOrders();
    },
    positions: () => {
      reads.positions += 1;
      return inner.positions();
    },
    dailyPnl: () => {
      reads.dailyPnl += 1;
      return inner.dailyPnl();
    },
  };
  return { ctx, reads };
}

const LIMITS = {
  maxPosition: '50',
  maxEventPosition: '80',
  maxOpenOrders: 10,
  maxDailyLoss: '100',
  priceBand: { reference: 'mid' as const, ticks: 10 },
};

describe('risk check reads', () => {
  it('reads open orders, positions and PnL once per check of a replace', () => {
    const { ctx, reads } = counted(
      context({ openOrders: [openOrder('c1', 'BUY', 5, '0.40')], positions: [position(3)], mid: { [SYM]: d('0.42') } }),
    );
    const verdicts = manager(LIMITS).check(replace('c1', { price: '0.41' }), ctx);
    expect(approvedOf(verdicts)).toHaveLength(1);
    expect(reads).toEqual({ openOrders: 1, positions: 1, dailyPnl: 1 });
  });

  it('reads afresh on the next check, so an order approved in between counts', () => {
    const open = [openOrder('c1', 'BUY', 40, '0.40')];
    const { ctx, reads } = counted(context({ openOrders: open }));
    const risk = manager({ maxPosition: '50' });
    expect(approvedOf(risk.check(place('BUY', 10, '0.40', { clordId: 'c2' }), ctx))).toHaveLength(1);
    open.push(openOrder('c2', 'BUY', 10, '0.40'));
    expect(refusedOf(risk.check(place('BUY', 1, '0.40', { clordId: 'c3' }), ctx)).code).toBe('RISK_MAX_POSITION');
    expect(reads.openOrders).toBe(2);
  });
});
