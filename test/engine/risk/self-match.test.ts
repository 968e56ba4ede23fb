// Self-match prevention before sending: refuse, or cancel the bot's crossed resting orders first; scope; instruction.
import { describe, expect, it } from 'vitest';
import { ACCOUNT, OTHER_ACCOUNT, approvedOf, context, manager, openOrder, place, refusedOf, replace, cross } from './helpers.ts';

const restingSell = openOrder('s1', 'SELL', 5, '0.50');
const restingSellOther = openOrder('s2', 'SELL', 3, '0.49', { account: OTHER_ACCOUNT });

describe('self-match prevention', () => {
  it("refuses a buy that would trade against the bot's own resting sell (default action refuse)", () => {
    const refused = refusedOf(manager().check(place('BUY', 2, '0.50'), context({ openOrders: [restingSell] })));
    expect(refused.code).toBe('RISK_SELF_MATCH');
    expect(refused.message).toBe(`BUY 2 EVT-A @ 0.5 would trade against the bot's own order(s) s1 (SELL 5 @ 0.5, ${ACCOUNT})`);
  });

  it('approves a buy below the resting sell (no cross)', () => {
    expect(approvedOf(manager().check(place('BUY', 2, '0.49'), context({ openOrders: [restingSell] })))).toHaveLength(1);
  });

  it('treats a market order as crossing every resting order on the other side', () => {
    expect(refusedOf(manager().check(place('SELL', 1, undefined), context({ openOrders: [openOrder('b1', 'BUY', 1, '0.01')] }))).code).toBe(
      'RISK_SELF_MATCH',
    );
  });

  it("with scope bot, refuses a cross against another of the bot's accounts; with scope account it passes", () => {
    const ctx = context({ openOrders: [restingSellOther] });
    expect(refusedOf(manager().check(place('BUY', 1, '0.49'), ctx)).code).toBe('RISK_SELF_MATCH');
    expect(approvedOf(manager({ selfMatch: { scope: 'account' } }).check(place('BUY', 1, '0.49'), ctx))).toHaveLength(1);
  });

  it('with action cancelResting, approves cancels of the crossed orders first, then the order', () => {
    const ctx = context({ openOrders: [restingSell, restingSellOther, openOrder('s3', 'SELL', 1, '0.60')] });
    const intent = place('BUY', 2, '0.55');
    const approved = approvedOf(manager({ selfMatch: { action: 'cancelResting' } }).check(intent, ctx));
    expect(approved.map((i) => (i.kind === 'cancel' ? `cancel ${i.clordId}` : i.kind))).toEqual(['cancel s1', 'cancel s2', 'place']);
    expect(approved[0]).toMatchObject({ intentId: `${intent.intentId}/smp-cancel/s1`, strategy: 'test', time: intent.time });
    expect(approved[2]).toMatchObject({ intentId: intent.intentId, side: 'BUY' });
    // the order is approved to wait for those cancels (the adapter holds it until they are confirmed)
    expect(approved[2]?.afterCancelOf).toEqual(['s1', 's2']);
    expect(approved[0]?.afterCancelOf).toBeUndefined();
  });

  it('with action cancelResting, counts the cancelled orders out of maxOpenOrders and the cancels into the rate', () => {
    const ctx = context({ openOrders: [restingSell, restingSellOther] });
    const roomy = manager({ selfMatch: { action: 'cancelResting' }, maxOpenOrders: 1 });
    expect(approvedOf(roomy.check(place('BUY', 1, '0.55'), ctx))).toHaveLength(3);
    const slow = manager({ selfMatch: { action: 'cancelResting' }, maxMessagesPerSecond: 2 });
    expect(refusedOf(slow.check(place('BUY', 1, '0.55'), ctx)).code).toBe('RISK_ORDER_RATE');
  });

  it('with action off, lets a crossing order through', () => {
    expect(
      approvedOf(manager({ selfMatch: { action: 'off' } }).check(place('BUY', 2, '0.50'), context({ openOrders: [restingSell] }))),
    ).toHaveLength(1);
  });

  it('checks a replace at its new price, ignoring the order being replaced', () => {
    const ctx = context({ openOrders: [restingSell, openOrder('b1', 'BUY', 1, '0.40')] });
    expect(approvedOf(manager().check(replace('b1', { price: '0.49' }), ctx))).toHaveLength(1);
    expect(refusedOf(manager().check(replace('b1', { price: '0.50' }), ctx)).code).toBe('RISK_SELF_MATCH');
  });

  it('does not apply to crosses (their legs never rest)', () => {
    expect(approvedOf(manager().check(cross(1, '0.50'), context({ openOrders: [restingSell] })))).toHaveLength(1);
  });

  it('fills the configured instruction on approved places that carry none, and keeps a strategy-set one', () => {
    const risk = manager({ selfMatch: { instruction: 'SELF_MATCH_PREVENTION_INSTRUCTION_CANCEL_RESTING' } });
    const [filled] = approvedOf(risk.check(place('BUY', 1, '0.40'), context()));
    expect(filled).toMatchObject({ kind: 'place', selfMatchPrevention: 'SELF_MATCH_PREVENTION_INSTRUCTION_CANCEL_RESTING' });
    const own = place('BUY', 1, '0.40', { selfMatchPrevention: 'SELF_MATCH_PREVENTION_INSTRUCTION_REMOVE_BOTH' });
    expect(approvedOf(risk.check(own, context()))[0]).toMatchObject({
      selfMatchPrevention: 'SELF_MATCH_PREVENTION_INSTRUCTION_REMOVE_BOTH',
    });
    expect(approvedOf(manager().check(place('BUY', 1, '0.40'), context()))[0]).toMatchObject({ selfMatchPrevention: undefined });
  });
});
