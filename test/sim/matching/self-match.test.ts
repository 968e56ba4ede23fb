// Self-match prevention: the aggressor's instruction decides; the key is self_match_prevention_id, else account.
import { describe, expect, it } from 'vitest';
import type { SelfMatchPrevention } from '../../../src/sim/matching/index.ts';
import { buy, idOf, of, sell, setup, SYM, types } from './helpers.ts';

const instr = (s: string) => `SELF_MATCH_PREVENTION_INSTRUCTION_${s}` as SelfMatchPrevention;

describe('self-match prevention', () => {
  it('REJECT_AGGRESSOR cancels the aggressor remainder and keeps the resting order', () => {
    const { engine } = setup();
    const other = idOf(engine.submit(sell(2, 50, { account: 'other' })));
    const mine = idOf(engine.submit(sell(5, 50, { account: 'me' })));
    const res = engine.submit(buy(10, 50, { account: 'me', selfMatchPreventionInstruction: instr('REJECT_AGGRESSOR') }));
    const aggr = idOf(res);
    expect(res.trades.map((t) => t.passive.order.orderId)).toEqual([other]);
    const last = of(res, aggr).pop();
    expect([last?.type, last?.cumQty, last?.text]).toEqual(['EXECUTION_TYPE_CANCELED', 2, 'self-match prevention']);
    expect(engine.getOrder(mine)?.leavesQty).toBe(5);
  });

  it('CANCEL_RESTING cancels the own resting order and keeps matching behind it', () => {
    const { engine } = setup();
    const mine = idOf(engine.submit(sell(5, 50, { account: 'me' })));
    const other = idOf(engine.submit(sell(5, 50, { account: 'other' })));
    const res = engine.submit(buy(3, 50, { account: 'me', selfMatchPreventionInstruction: instr('CANCEL_RESTING') }));
    expect(of(res, mine).map((e) => [e.type, e.text])).toEqual([['EXECUTION_TYPE_CANCELED', 'self-match prevention']]);
    expect(res.trades.map((t) => [t.passive.order.orderId, t.qty])).toEqual([[other, 3]]);
    expect(types(res)).toEqual(['NEW', 'CANCELED', 'PARTIAL_FILL', 'FILL']);
  });

  it('REMOVE_BOTH cancels the resting order and the aggressor remainder', () => {
    const { engine } = setup();
    const mine = idOf(engine.submit(sell(5, 50, { account: 'me' })));
    engine.submit(sell(5, 50, { account: 'other' }));
    const res = engine.submit(buy(3, 50, { account: 'me', selfMatchPreventionInstruction: instr('REMOVE_BOTH') }));
    const aggr = idOf(res);
    expect(of(res, mine).map((e) => e.type)).toEqual(['EXECUTION_TYPE_CANCELED']);
    expect(of(res, aggr).map((e) => e.type)).toEqual(['EXECUTION_TYPE_NEW', 'EXECUTION_TYPE_CANCELED']);
    expect(res.trades).toHaveLength(0);
    expect(engine.depth(SYM).offers).toEqual([{ price: 50, qty: 5 }]);
  });

  it('UNDEFINED (or absent) lets an account trade with itself', () => {
    const { engine } = setup();
    engine.submit(sell(1, 50, { account: 'me' }));
    expect(engine.submit(buy(1, 50, { account: 'me' })).trades).toHaveLength(1);
    engine.submit(sell(1, 50, { account: 'me' }));
    expect(engine.submit(buy(1, 50, { account: 'me', selfMatchPreventionInstruction: instr('UNDEFINED') })).trades).toHaveLength(1);
  });

  it('uses self_match_prevention_id instead of the account when given', () => {
    const { engine } = setup();
    // Different accounts of one firm share an id: prevented.
    engine.submit(sell(1, 50, { account: 'a1', selfMatchPreventionId: 'firm' }));
    const res = engine.submit(buy(1, 50, { account: 'a2', selfMatchPreventionId: 'firm', selfMatchPreventionInstruction: instr('REJECT_AGGRESSOR') }));
    expect(res.trades).toHaveLength(0);
    // The same account with different ids: allowed.
    engine.submit(sell(1, 49, { account: 'z', selfMatchPreventionId: 'desk1' }));
    const res2 = engine.submit(buy(1, 49, { account: 'z', selfMatchPreventionId: 'desk2', selfMatchPreventionInstruction: instr('REJECT_AGGRESSOR') }));
    expect(res2.trades).toHaveLength(1);
  });

  it('FOK counts own orders as unavailable when SMP applies', () => {
    const { engine } = setup();
    engine.submit(sell(5, 50, { account: 'me' }));
    engine.submit(sell(5, 50, { account: 'other' }));
    const res = engine.submit(
      buy(10, 50, { account: 'me', timeInForce: 'TIME_IN_FORCE_FILL_OR_KILL', selfMatchPreventionInstruction: instr('CANCEL_RESTING') }),
    );
    expect(types(res)).toEqual(['NEW', 'CANCELED']);
    expect(res.trades).toHaveLength(0);
    expect(engine.depth(SYM).offers).toEqual([{ price: 50, qty: 10 }]);
  });
});
