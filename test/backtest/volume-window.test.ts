/**
 * VolumeWindow (the "volume" queue-ahead model's input) against a reference that sums the trades of the
 * window by brute force: random tapes (times never going back, prices small integers, large integers and
 * fractions, so both the typed-array sums and the Map are used, and enough trades to grow the ring)
 * interleaved with queries at or after the last trade.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { VolumeWindow } from '../../backtest/replay/volume-window.ts';

const price = fc.oneof(
  fc.integer({ min: 0, max: 99 }),
  fc.constantFrom(70_000, 123_456, 0.5, 12.25),
  fc.integer({ min: 65_530, max: 65_540 }),
);
const step = fc.oneof(
  fc.record({ kind: fc.constant('add' as const), dt: fc.integer({ min: 0, max: 400 }), price, qty: fc.integer({ min: 1, max: 50 }) }),
  fc.record({ kind: fc.constant('query' as const), dt: fc.integer({ min: 0, max: 400 }), price }),
);

describe('VolumeWindow', () => {
  it('sums the volume traded at a price over the last windowMs, as a brute-force sum does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.array(step, { minLength: 1, maxLength: 3000 }), (windowMs, steps) => {
        const window = new VolumeWindow(windowMs);
        const trades: { time: number; price: number; qty: number }[] = [];
        let now = 1_000_000;
        for (const s of steps) {
          now += s.dt;
          if (s.kind === 'add') {
            window.add(s.price, s.qty, now);
            trades.push({ time: now, price: s.price, qty: s.qty });
          } else {
            const expected = trades
              .filter((t) => t.price === s.price && t.time > now - windowMs && t.time <= now)
              .reduce((sum, t) => sum + t.qty, 0);
            expect(window.volumeAt(s.price, now)).toBe(expected);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('keeps every trade of a long window (the ring grows), then lets them go', () => {
    const window = new VolumeWindow(10_000);
    for (let i = 0; i < 5000; i++) window.add(i % 3 === 0 ? 70_000 : 42, 1 + (i % 4), 1000 + i);
    let at42 = 0;
    let atLarge = 0;
    for (let i = 0; i < 5000; i++) {
      if (i % 3 === 0) atLarge += 1 + (i % 4);
      else at42 += 1 + (i % 4);
    }
    expect(window.volumeAt(42, 5999)).toBe(at42);
    expect(window.volumeAt(70_000, 5999)).toBe(atLarge);
    expect(window.volumeAt(42, 20_000)).toBe(0);
    expect(window.volumeAt(70_000, 20_000)).toBe(0);
  });
});
