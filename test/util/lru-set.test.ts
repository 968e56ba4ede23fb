/**
 * LruSet against a reference model (an array in sighting order): any sequence of sightings gives the same
 * "seen before" answers, the same size and the same members, whatever the capacity; and a set kept full for
 * far longer than its capacity still answers like the model (its internal queue is compacted, never grows).
 * The queue is built only when the set first goes over capacity (from the sightings' stamps): the model
 * test crosses that point with every capacity it draws, after repeats have reordered the recency.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LruSet } from '../../src/util/lru-set.ts';

function model(capacity: number) {
  const order: string[] = [];
  return {
    checkAndAdd(key: string): boolean {
      const index = order.indexOf(key);
      if (index >= 0) order.splice(index, 1);
      order.push(key);
      if (order.length > capacity) order.shift();
      return index >= 0;
    },
    order,
  };
}

describe('LruSet', () => {
  it('answers like the reference model for any sequence of sightings', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 400 }), (capacity, keys) => {
        const set = new LruSet(capacity);
        const ref = model(capacity);
        for (const k of keys) {
          const key = `k${k}`;
          expect(set.checkAndAdd(key)).toBe(ref.checkAndAdd(key));
          expect(set.size).toBe(ref.order.length);
        }
        for (let k = 0; k <= 30; k++) expect(set.has(`k${k}`)).toBe(ref.order.includes(`k${k}`));
      }),
    );
  });

  it('stays exact over many more sightings than its capacity (new keys and repeats mixed)', () => {
    const capacity = 50;
    const set = new LruSet(capacity);
    const ref = model(capacity);
    for (let i = 0; i < 20_000; i++) {
      const key = i % 3 === 0 ? `r${i % 40}` : `n${i}`;
      expect(set.checkAndAdd(key)).toBe(ref.checkAndAdd(key));
    }
    expect(set.size).toBe(capacity);
    for (const key of ref.order) expect(set.has(key)).toBe(true);
  });

  it('refuses a capacity below 1', () => {
    expect(() => new LruSet(0)).toThrow(/capacity must be an integer >= 1/);
  });
});
