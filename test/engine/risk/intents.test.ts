// How each intent kind goes through risk: cancels, replaces and crosses, malformed intents, a failing context.
import { describe, expect, it } from 'vitest';
import { approvedOf, cancel, cancelAll, context, cross, manager, openOrder, place, refusedOf, replace, ACCOUNT } from './helpers.ts';

describe('cancels', () => {
  it('approves a cancel of an open order and a cancelAll', () => {
    const ctx = context({ openOrders: [openOrder('b1', 'BUY', 1, '0.40')] });
    expect(approvedOf(manager().check(cancel('b1'), ctx))).toEqual([expect.objectContaining({ kind: 'cancel', clordId: 'b1' })]);
    expect(approvedOf(manager().check(cancelAll('EVT-A'), ctx))).toHaveLength(1);
  });

  it('refuses a cancel of an order the bot does not have open', () => {
    const refused = refusedOf(manager().check(cancel('gone'), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_UNKNOWN_ORDER', 'no open order gone to cancel']);
  });
});

describe('replaces', () => {
  it('refuses a replace of an unknown order', () => {
    const refused = refusedOf(manager().check(replace('gone', { price: '0.40' }), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_UNKNOWN_ORDER', 'no open order gone to replace']);
  });

  it('refuses a replace that changes nothing', () => {
    const refused = refusedOf(manager().check(replace('b1', {}), context({ openOrders: [openOrder('b1', 'BUY', 1, '0.40')] })));
    expect([refused.code, refused.message]).toEqual(['RISK_INVALID_INTENT', 'a replace must change the price or the quantity']);
  });

  it('checks the new price against the instrument', () => {
    const ctx = context({ openOrders: [openOrder('b1', 'BUY', 1, '0.40')] });
    expect(refusedOf(manager().check(replace('b1', { price: '0.405' }), ctx)).code).toBe('RISK_TICK_SIZE');
  });
});

describe('crosses', () => {
  it('approves a cross between two accounts within the limits', () => {
    expect(approvedOf(manager({ maxPosition: '5' }).check(cross(5, '0.50'), context()))).toHaveLength(1);
  });

  it('checks each leg against maxPosition', () => {
    const refused = refusedOf(manager({ maxPosition: '5' }).check(cross(6, '0.50'), context()));
    expect(refused.code).toBe('RISK_MAX_POSITION');
  });

  it('refuses a cross within one account', () => {
    const refused = refusedOf(manager().check(cross(1, '0.50', ACCOUNT, ACCOUNT), context()));
    expect([refused.code, refused.message]).toEqual(['RISK_INVALID_INTENT', `a cross needs two different accounts, got ${ACCOUNT} twice`]);
  });
});

describe('client order ids', () => {
  it('refuses a place or a replace that reuses the client order id of an open order', () => {
    const ctx = context({ openOrders: [openOrder('b1', 'BUY', 1, '0.40'), openOrder('b2', 'BUY', 1, '0.39')] });
    const refused = refusedOf(manager().check(place('BUY', 1, '0.40', { clordId: 'b1' }), ctx));
    expect([refused.code, refused.message]).toEqual(['RISK_INVALID_INTENT', 'client order id b1 is already used by an open order']);
    expect(refusedOf(manager().check({ ...replace('b1', { price: '0.41' }), newClordId: 'b2' }, ctx)).code).toBe('RISK_INVALID_INTENT');
  });
});

describe('verdicts', () => {
  it('returns the intent itself in a refusal', () => {
    const intent = place('BUY', 0, '0.40');
    expect(refusedOf(manager().check(intent, context())).intent).toBe(intent);
  });

  it('fails closed when the context throws (RISK_CHECK_FAILED)', () => {
    const broken = {
      ...context(),
      openOrders: () => {
        throw new Error('tracker not ready');
      },
    };
    const refused = refusedOf(manager().check(place('BUY', 1, '0.40'), broken));
    expect([refused.code, refused.message]).toEqual(['RISK_CHECK_FAILED', 'risk check failed, intent refused: tracker not ready']);
  });
});
