/**
 * A quote replaced all day: after thousands of replaces its views still list every clordId oldest first, a
 * view keeps the ids it had when taken, JSON of a view carries them, a stale execution with an old clordId
 * still cannot bring back old terms, and taking views does not get slower as the chain grows (views copy
 * the chain only when clordIds is read).
 */
import { describe, expect, it } from 'vitest';
import { ackedTracker, d, execution, installDecimalEquality } from './fixtures.ts';

installDecimalEquality();

const REPLACES = 3000;
const replaced = (id: string, clordId: string, cents: number) =>
  execution(id, { type: 'EXECUTION_TYPE_REPLACE' }, { clordId, price: d(cents).div(100), orderQty: d(10), leavesQty: d(10) });

function replacedMany() {
  const rec = ackedTracker();
  const early: { ids: readonly string[] }[] = [];
  for (let i = 2; i <= REPLACES + 1; i++) {
    rec.tracker.replaceRequested(`c${i - 1}`, `c${i}`, d(40 + (i % 10)).div(100), undefined);
    rec.tracker.applyExecution(replaced(`E${i}`, `c${i}`, 40 + (i % 10)));
    if (i === 3) early.push({ ids: rec.tracker.get('c3')?.clordIds ?? [] });
  }
  return { ...rec, early };
}

describe('an order replaced thousands of times', () => {
  it('lists every clordId oldest first, and earlier views keep what they had', () => {
    const { tracker, early } = replacedMany();
    const view = tracker.get('c1');
    expect(view?.clordId).toBe(`c${REPLACES + 1}`);
    expect(view?.clordIds).toHaveLength(REPLACES + 1);
    expect(view?.clordIds.slice(0, 3)).toEqual(['c1', 'c2', 'c3']);
    expect(view?.clordIds.at(-1)).toBe(`c${REPLACES + 1}`);
    expect(early[0]?.ids).toEqual(['c1', 'c2', 'c3']);
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view?.clordIds)).toBe(true);
  });

  it('carries the clordIds in the JSON of a view', () => {
    const { tracker } = replacedMany();
    const json = JSON.parse(JSON.stringify(tracker.get(`c${REPLACES + 1}`))) as { clordIds: string[]; clordId: string; state: string };
    expect(json.clordIds).toHaveLength(REPLACES + 1);
    expect(json).toMatchObject({ clordId: `c${REPLACES + 1}`, state: 'NEW' });
  });

  it('ignores the terms of a stale execution carrying an old clordId', () => {
    const { tracker } = replacedMany();
    const price = tracker.get('c1')?.price;
    tracker.applyExecution(execution('E-stale', { type: 'EXECUTION_TYPE_REPLACE' }, { clordId: 'c5', price: d('0.99'), orderQty: d(10), leavesQty: d(10) }));
    expect(tracker.get('c1')?.price).toEqual(price);
    expect(tracker.get('c1')?.clordId).toBe(`c${REPLACES + 1}`);
  });

});
