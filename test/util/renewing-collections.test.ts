/**
 * RenewingMap and RenewingSet against the built-in Map and Set: any sequence of sets (adds), deletes, clears
 * and lookups gives the same answers, sizes and iteration order, however many times the entries moved to a
 * fresh collection on the way. Deleting while iterating (which a Map allows, and the throttle queue does)
 * keeps working across a move.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RenewingMap, RenewingSet } from '../../src/util/renewing-collections.ts';

type Op = { kind: 'set'; key: number; value: number } | { kind: 'delete'; key: number } | { kind: 'clear' } | { kind: 'get'; key: number };

const keys = fc.integer({ min: 0, max: 40 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('set' as const), key: keys, value: fc.integer() }) },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: keys }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('get' as const), key: keys }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
);

describe('RenewingMap', () => {
  it('answers like a Map for any sequence of operations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 2000 }), (ops) => {
        const mine = new RenewingMap<number, number>();
        const map = new Map<number, number>();
        for (const o of ops) {
          if (o.kind === 'set') expect(mine.set(o.key, o.value)).toBe(mine);
          if (o.kind === 'set') map.set(o.key, o.value);
          if (o.kind === 'delete') expect(mine.delete(o.key)).toBe(map.delete(o.key));
          if (o.kind === 'get') expect([mine.get(o.key), mine.has(o.key)]).toEqual([map.get(o.key), map.has(o.key)]);
          if (o.kind === 'clear') {
            mine.clear();
            map.clear();
          }
          expect(mine.size).toBe(map.size);
        }
        expect([...mine]).toEqual([...map]);
        expect([...mine.keys()]).toEqual([...map.keys()]);
        expect([...mine.values()]).toEqual([...map.values()]);
        expect([...mine.entries()]).toEqual([...map.entries()]);
        const seen: [number, number][] = [];
        mine.forEach((value, key, self) => {
          expect(self).toBe(mine);
          seen.push([key, value]);
        });
        expect(seen).toEqual([...map]);
      }),
    );
  });

  it('keeps insertion order across moves to a fresh map, and deleting while iterating works', () => {
    const mine = new RenewingMap<string, number>();
    // far more deletes than the slack: the entries move to a fresh Map many times
    for (let i = 0; i < 10_000; i++) {
      mine.set(`k${i}`, i);
      if (i >= 3) mine.delete(`k${i - 3}`);
    }
    expect([...mine.keys()]).toEqual(['k9997', 'k9998', 'k9999']);
    for (let i = 0; i < 200; i++) mine.set(`extra${i}`, i);
    for (const [key] of mine) if (key.startsWith('extra')) mine.delete(key);
    expect([...mine.keys()]).toEqual(['k9997', 'k9998', 'k9999']);
    expect(Object.prototype.toString.call(mine)).toBe('[object RenewingMap]');
  });
});

describe('RenewingSet', () => {
  it('answers like a Set for any sequence of operations', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 2000 }), (ops) => {
        const mine = new RenewingSet<number>();
        const set = new Set<number>();
        for (const o of ops) {
          if (o.kind === 'set') expect(mine.add(o.key)).toBe(mine);
          if (o.kind === 'set') set.add(o.key);
          if (o.kind === 'delete') expect(mine.delete(o.key)).toBe(set.delete(o.key));
          if (o.kind === 'get') expect(mine.has(o.key)).toBe(set.has(o.key));
          if (o.kind === 'clear') {
            mine.clear();
            set.clear();
          }
          expect(mine.size).toBe(set.size);
        }
        expect([...mine]).toEqual([...set]);
        expect([...mine.values()]).toEqual([...set.values()]);
        expect([...mine.keys()]).toEqual([...set.keys()]);
        expect([...mine.entries()]).toEqual([...set.entries()]);
        const seen: number[] = [];
        mine.forEach((value, same, self) => {
          expect([same, self]).toEqual([value, mine]);
          seen.push(value);
        });
        expect(seen).toEqual([...set]);
      }),
    );
  });

  it('starts from the values given and keeps their order', () => {
    const mine = new RenewingSet(['b', 'a', 'c']);
    for (let i = 0; i < 500; i++) {
      mine.add(`x${i}`);
      mine.delete(`x${i}`);
    }
    expect([...mine]).toEqual(['b', 'a', 'c']);
  });
});
