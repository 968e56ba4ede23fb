// Self-match prevention: the aggressor's instruction decides; the same account always self-matches, and a shared
// self_match_prevention_id also groups orders across accounts.
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

  it('a shared self_match_prevention_id groups different accounts', () => {
    const { engine } = setup();
    engine.submit(sell(1, 50, { account: 'a1', selfMatchPreventionId: 'firm' }));
    const res = engine.submit(
      buy(1, 50, { account: 'a2', selfMatchPreventionId: 'firm', selfMatchPreventionInstruction: instr('REJECT_AGGRESSOR') }),
    );
    expect(res.trades).toHaveLength(0);
    // different ids on different accounts: no self-match
    engine.submit(sell(1, 48, { account: 'b1', selfMatchPreventionId: 'x' }));
    const res2 = engine.submit(
      buy(1, 48, { account: 'b2', selfMatchPreventionId: 'y', selfMatchPreventionInstruction: instr('REJECT_AGGRESSOR') }),
    );
    expect(res2.trades).toHaveLength(1);
  });

  it('the same account never trades with itself under SMP, whatever its ids', () => {
    const { engine } = setup();
    // two different ids on one account
    engine.submit(sell(1, 49, { account: 'z', selfMatchPreventionId: 'desk1' }));
    const res = engine.submit(
      buy(1, 49, { account: 'z', selfMatchPreventionId: 'desk2', selfMatchPreventionInstruction: instr('REJECT_AGGRESSOR') }),
    );
    expect(res.trades).toHaveLength(0);
    expect(engine.depth(SYM).offers).toEqual([{ price: 49, qty: 1 }]);
  });

  it('an id on one order only does not open a self trade (REMOVE_BOTH without id vs resting order with id)', () => {
    const { engine } = setup();
    const resting = idOf(engine.submit(sell(2, 50, { account: 'me', selfMatchPreventionId: 'k1' })));
    const res = engine.submit(buy(2, 50, { account: 'me', selfMatchPreventionInstruction: instr('REMOVE_BOTH') }));
    expect(res.trades).toHaveLength(0);
    expect(of(res, resting).map((e) => [e.type, e.text])).toEqual([['EXECUTION_TYPE_CANCELED', 'self-match prevention']]);
    expect(of(res, idOf(res)).map((e) => e.type)).toEqual(['EXECUTION_TYPE_NEW', 'EXECUTION_TYPE_CANCELED']);
    // and the other way round: the aggressor carries the id, the resting order does not
    engine.submit(sell(2, 51, { account: 'me' }));
    const res2 = engine.submit(
      buy(2, 51, { account: 'me', selfMatchPreventionId: 'k1', selfMatchPreventionInstruction: instr('CANCEL_RESTING') }),
    );
    expect(res2.trades).toHaveLength(0);
    expect(engine.depth(SYM).offers).toEqual([]);
  });

  it('refuses a cross whose legs are one account even with different ids', () => {
    const { engine } = setup();
    const res = engine.cross({
      crossId: 'c1',
      crossType: 'CROSS_TYPE_ALL_OR_NONE',
      requests: [
        buy(1, 50, { account: 'me', selfMatchPreventionId: 'k1', selfMatchPreventionInstruction: instr('REJECT_AGGRESSOR') }),
        sell(1, 50, { account: 'me', selfMatchPreventionId: 'k2' }),
      ],
    });
    expect(res.trades).toHaveLength(0);
    expect(res.executions.map((e) => [e.type, e.text])).toContainEqual([
      'EXECUTION_TYPE_REJECTED',
      'self-match prevention: both legs belong to account me',
    ]);
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
