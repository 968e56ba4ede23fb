// A cross on a venue without crosses (family A's /v1) is refused by risk, RISK_CROSS_UNSUPPORTED, right after the
// intent's shape and before anything else is checked; the same cross passes where the venue can cross, and the
// capability never touches places.
import { describe, expect, it } from 'vitest';
import { approvedOf, context, cross, manager, place, refusedOf } from './helpers.ts';

describe('venue capability: crosses', () => {
  it('refuses a cross when the venue cannot cross, naming the cross and the fix', () => {
    const refused = refusedOf(manager().check(cross(2, '0.50'), { ...context(), canCross: () => false }));
    expect(refused.code).toBe('RISK_CROSS_UNSUPPORTED');
    expect(refused.message).toMatch(/has no cross.*nothing was sent.*gateway venue/);
  });

  it('checks the intent shape first: a malformed cross stays RISK_INVALID_INTENT', () => {
    expect(refusedOf(manager().check(cross(0, '0.50'), { ...context(), canCross: () => false })).code).toBe('RISK_INVALID_INTENT');
  });

  it('approves the cross on a venue that can cross (explicitly or by default), and places either way', () => {
    expect(approvedOf(manager().check(cross(2, '0.50'), { ...context(), canCross: () => true }))).toHaveLength(1);
    expect(approvedOf(manager().check(cross(2, '0.50'), context()))).toHaveLength(1);
    expect(approvedOf(manager().check(place('BUY', 1, '0.50'), { ...context(), canCross: () => false }))).toHaveLength(1);
  });
});
