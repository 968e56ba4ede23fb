/**
 * The send queue's throttle (src/engine/execution/throttle.ts) on its own: the budget per sliding second,
 * cancels first, a newer entry of the same order superseding a queued one in its place in line, refusals only
 * past the bound or the age, the next drain time; and a property over random offers, removals and takes:
 * never more than the budget in any 1 s window, and every entry ends sent, superseded or refused exactly once.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ThrottleQueue, type ThrottleKind } from '../../../src/engine/execution/throttle.ts';

const limits = (maxPerSecond: number, maxQueued = 1000, maxAgeMs = 10_000) => ({ maxPerSecond, maxQueued, maxAgeMs });
const items = (q: { send: readonly { item: string }[] }) => q.send.map((e) => e.item);

describe('ThrottleQueue', () => {
  it('sends at most the budget per second and the rest as the window frees, without refusing', () => {
    const q = new ThrottleQueue<string>(limits(3));
    for (let i = 0; i < 7; i++) expect(q.offer('place', `p${i}`, `p${i}`, 0).accepted).toBe(true);
    expect(items(q.take(0))).toEqual(['p0', 'p1', 'p2']);
    expect(q.nextDrainAt(0)).toBe(1000);
    expect(items(q.take(999))).toEqual([]);
    expect(items(q.take(1000))).toEqual(['p3', 'p4', 'p5']);
    expect(items(q.take(2000))).toEqual(['p6']);
    expect(q.size).toBe(0);
    expect(q.nextDrainAt(2000)).toBeUndefined();
  });

  it('sends cancels first, then replaces, places and crosses, each oldest first', () => {
    const q = new ThrottleQueue<string>(limits(10));
    q.offer('cross', 'x1', 'x1', 0);
    q.offer('place', 'p1', 'p1', 0);
    q.offer('replace', 'O1', 'r1', 0);
    q.offer('cancel', 'c1', 'c1', 0);
    q.offer('place', 'p2', 'p2', 0);
    q.offer('cancel', 'c2', 'c2', 0);
    expect(items(q.take(0))).toEqual(['c1', 'c2', 'r1', 'p1', 'p2', 'x1']);
  });

  it('a newer entry of the same kind and order supersedes the queued one and keeps its place in line', () => {
    const q = new ThrottleQueue<string>(limits(1));
    q.offer('place', 'p0', 'p0', 0);
    q.take(0);
    q.offer('replace', 'O1', 'r1', 10);
    q.offer('replace', 'O2', 'r2', 20);
    const newer = q.offer('replace', 'O1', 'r1b', 30);
    expect(newer.accepted && newer.superseded?.item).toBe('r1');
    expect(q.size).toBe(2);
    expect(items(q.take(1000))).toEqual(['r1b']);
    expect(items(q.take(2000))).toEqual(['r2']);
  });

  it('reports what a take left waiting once, and refuses only past the bound or the age (never a cancel)', () => {
    const q = new ThrottleQueue<string>(limits(1, 2, 1500));
    expect(q.offer('place', 'a', 'a', 0).accepted).toBe(true);
    expect(q.offer('place', 'b', 'b', 0).accepted).toBe(true);
    const full = q.offer('place', 'c', 'c', 0);
    expect(full.accepted).toBe(false);
    expect(full.accepted ? '' : full.reason).toContain('maxQueuedMessages 2');
    expect(q.offer('cancel', 'z', 'z', 0).accepted).toBe(true); // cancels are never refused
    const first = q.take(0);
    expect(items(first)).toEqual(['z']);
    expect(first.nowWaiting.map((e) => e.item)).toEqual(['a', 'b']);
    const second = q.take(1000);
    expect(items(second)).toEqual(['a']);
    expect(second.nowWaiting).toEqual([]);
    const third = q.take(2000);
    expect(items(third)).toEqual([]);
    expect(third.expired.map((e) => e.item)).toEqual(['b']);
    expect(q.size).toBe(0);
  });

  it('while requests wait, sends in batches of a tenth of the budget, not one venue call per freed slot', () => {
    const q = new ThrottleQueue<string>(limits(100));
    for (let t = 0; t < 1000; t += 10) {
      q.offer('place', `s${t}`, `s${t}`, t);
      expect(q.take(t).send).toHaveLength(1);
    }
    for (let i = 0; i < 30; i++) q.offer('place', `w${i}`, `w${i}`, 995);
    expect(q.take(995).send).toEqual([]);
    expect(q.take(1000).send).toEqual([]); // one slot is free: not a batch
    expect(q.nextDrainAt(1000)).toBe(1090); // ten slots are free once the message sent at 90 left the window
    expect(items(q.take(1090))).toEqual(['w0', 'w1', 'w2', 'w3', 'w4', 'w5', 'w6', 'w7', 'w8', 'w9']);
  });

  it('without limits hands out everything in order, and a forced take ignores the budget', () => {
    const free = new ThrottleQueue<string>(undefined);
    for (let i = 0; i < 50; i++) free.offer('place', `p${i}`, `p${i}`, 0);
    expect(free.take(0).send).toHaveLength(50);
    const q = new ThrottleQueue<string>(limits(1));
    q.offer('cancel', 'a', 'a', 0);
    q.offer('cancel', 'b', 'b', 0);
    expect(items(q.take(0, true))).toEqual(['a', 'b']);
  });
});

type Op =
  | { op: 'offer'; kind: ThrottleKind; key: number; dt: number }
  | { op: 'remove'; kind: ThrottleKind; key: number }
  | { op: 'take'; dt: number };

const kindArb = fc.constantFrom<ThrottleKind>('cancel', 'replace', 'place', 'cross');
const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('offer' as const), kind: kindArb, key: fc.nat(8), dt: fc.nat(300) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('remove' as const), kind: kindArb, key: fc.nat(8) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('take' as const), dt: fc.nat(700) }) },
);

describe('ThrottleQueue properties', () => {
  it('never sends more than the budget in any 1 s window; every entry ends sent, superseded or refused exactly once', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 200, max: 3000 }),
        fc.array(opArb, { maxLength: 120 }),
        (maxPerSecond, maxQueued, maxAgeMs, ops) => {
          const q = new ThrottleQueue<number>({ maxPerSecond, maxQueued, maxAgeMs });
          const ended = new Map<number, string>();
          const end = (id: number, how: string) => {
            expect(ended.has(id), `entry ${id} ended twice (${ended.get(id)}, then ${how})`).toBe(false);
            ended.set(id, how);
          };
          const sendTimes: number[] = [];
          let now = 0;
          let next = 0;
          const take = () => {
            const result = q.take(now);
            for (const e of result.send) {
              end(e.item, 'sent');
              sendTimes.push(now);
            }
            for (const e of result.expired) {
              expect(e.kind).not.toBe('cancel');
              expect(now - e.queuedAt).toBeGreaterThan(maxAgeMs);
              end(e.item, 'refused');
            }
          };
          for (const o of ops) {
            if (o.op === 'offer') {
              now += o.dt;
              const id = next++;
              const r = q.offer(o.kind, String(o.key), id, now);
              if (!r.accepted) {
                expect(o.kind).not.toBe('cancel');
                expect(q.size).toBeGreaterThanOrEqual(maxQueued);
                end(id, 'refused');
              } else if (r.superseded !== undefined) end(r.superseded.item, 'superseded');
            } else if (o.op === 'remove') {
              const removed = q.remove(o.kind, String(o.key));
              if (removed !== undefined) end(removed.item, 'superseded');
            } else {
              now += o.dt;
              take();
            }
          }
          // drain: each drain at the time the queue says a slot frees
          for (let guard = 0; q.size > 0 && guard < 10_000; guard++) {
            now = Math.max(now, q.nextDrainAt(now) ?? now);
            take();
          }
          expect(q.size).toBe(0);
          expect(ended.size).toBe(next);
          for (let i = 0; i < sendTimes.length; i++) {
            const t = sendTimes[i] ?? 0;
            const inWindow = sendTimes.filter((s) => s > t - 1000 && s <= t).length;
            expect(inWindow).toBeLessThanOrEqual(maxPerSecond);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
