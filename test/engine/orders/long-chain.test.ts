/**
 * A quote replaced all day: after thousands of replaces its views list its first clordId and the recent ones
 * oldest first (a window of 64 to 128: the chain and the index do not grow with the replaces), a view keeps
 * the ids it had when taken, JSON of a view carries them, a stale execution with a recent old clordId still
 * cannot bring back old terms, and ids that left the window are no longer aliases of the order.
 */
import { describe, expect, it } from 'vitest';
import { CHAIN_WINDOW } from '../../../src/engine/orders/clord-chain.ts';
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
  it('lists the first clordId and a window of recent ones oldest first, and earlier views keep what they had', () => {
    const { tracker, early } = replacedMany();
    const view = tracker.get('c1');
    expect(view?.clordId).toBe(`c${REPLACES + 1}`);
    const ids = view?.clordIds ?? [];
    expect(ids.length).toBeGreaterThan(CHAIN_WINDOW);
    expect(ids.length).toBeLessThanOrEqual(2 * CHAIN_WINDOW + 1);
    expect(ids[0]).toBe('c1');
    // the recent ones, consecutive up to the newest
    const recent = ids.slice(1).map((id) => Number(id.slice(1)));
    expect(recent).toEqual(recent.map((_, i) => REPLACES + 2 - recent.length + i));
    expect(ids.at(-1)).toBe(`c${REPLACES + 1}`);
    // an id that left the window is no longer an alias of the order; the first one stays
    expect(tracker.get('c5')).toBeUndefined();
    expect(tracker.get('c1')?.orderId).toBe('O1');
    expect(early[0]?.ids).toEqual(['c1', 'c2', 'c3']);
    expect(Object.isFrozen(view)).toBe(true);
    expect(Object.isFrozen(view?.clordIds)).toBe(true);
  });

  it('carries the clordIds in the JSON of a view', () => {
    const { tracker } = replacedMany();
    const json = JSON.parse(JSON.stringify(tracker.get(`c${REPLACES + 1}`))) as { clordIds: string[]; clordId: string; state: string };
    expect(json.clordIds).toEqual(tracker.get('c1')?.clordIds);
    expect(json).toMatchObject({ clordId: `c${REPLACES + 1}`, state: 'NEW' });
  });

  it('ignores the terms of a stale execution carrying an old clordId', () => {
    const { tracker } = replacedMany();
    const price = tracker.get('c1')?.price;
    tracker.applyExecution(
      execution(
        'E-stale',
        { type: 'EXECUTION_TYPE_REPLACE' },
        { clordId: `c${REPLACES - 5}`, price: d('0.99'), orderQty: d(10), leavesQty: d(10) },
      ),
    );
    expect(tracker.get('c1')?.price).toEqual(price);
    expect(tracker.get('c1')?.clordId).toBe(`c${REPLACES + 1}`);
  });
});
