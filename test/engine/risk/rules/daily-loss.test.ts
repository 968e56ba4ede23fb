// DailyLossRule: the loss limit's boundary, the zero limit, and the answer kept for the same PnL object.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Decimal } from '../../../../src/domain/decimal.ts';
import { DailyLossRule } from '../../../../src/engine/risk/rules/daily-loss.ts';
import { context, d } from '../helpers.ts';

describe('DailyLossRule', () => {
  it('breaches at -maxDailyLoss and below, not above', () => {
    const rule = new DailyLossRule(d(50));
    expect(rule.breach(context({ pnl: d('-49.99') }))).toBeUndefined();
    expect(rule.breach(context({ pnl: d(-50) }))).toBe('daily PnL -50 reached the loss limit maxDailyLoss 50');
    expect(rule.breach(context({ pnl: d(-51) }))).toBe('daily PnL -51 reached the loss limit maxDailyLoss 50');
    expect(rule.breach(context({ pnl: d(10) }))).toBeUndefined();
  });

  it('a zero limit breaches on any loss, never on a flat or positive PnL', () => {
    const rule = new DailyLossRule(d(0));
    expect(rule.breach(context({ pnl: d(0) }))).toBeUndefined();
    expect(rule.breach(context({ pnl: new Decimal(-0) }))).toBeUndefined();
    expect(rule.breach(context({ pnl: d('-0.01') }))).toBe('daily PnL -0.01 reached the loss limit maxDailyLoss 0');
  });

  it('answers as pnl + maxDailyLoss > 0 does, for new and repeated PnL objects alike', () => {
    const decimal = fc.integer({ min: -10_000, max: 10_000 }).map((n) => new Decimal(n).div(100));
    fc.assert(
      fc.property(
        decimal.filter((x) => x.gte(0)),
        fc.array(decimal, { minLength: 1, maxLength: 20 }),
        (limit, pnls) => {
          const rule = new DailyLossRule(limit);
          for (const pnl of pnls) {
            const expected = pnl.gte(0) || pnl.plus(limit).gt(0);
            const ctx = context({ pnl });
            // twice with the same object (the kept answer), once with an equal new one
            expect(rule.breach(ctx) === undefined).toBe(expected);
            expect(rule.breach(ctx) === undefined).toBe(expected);
            expect(rule.breach(context({ pnl: new Decimal(pnl) })) === undefined).toBe(expected);
          }
        },
      ),
    );
  });
});
