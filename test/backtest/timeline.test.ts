/**
 * settleContinuations (backtest/replay/timeline.ts): resolves only once every promise continuation queued
 * before it has run, however deep the chain (continuations queueing continuations, async functions awaiting
 * each other, nextTicks they schedule first), and still lets the event loop turn (setImmediate's check phase,
 * where timers and I/O get their chance) at least once every DRAINS_PER_LOOP_TURN drains.
 */
import { describe, expect, it } from 'vitest';
import { DRAINS_PER_LOOP_TURN, settleContinuations } from '../../backtest/replay/timeline.ts';

/** A chain of `depth` continuations, each queued by the one before; resolves to the depth reached. */
function chain(depth: number, reached: { depth: number }): Promise<number> {
  let p: Promise<number> = Promise.resolve(0);
  for (let i = 1; i <= depth; i++) p = p.then(() => (reached.depth = i));
  return p;
}

async function nested(levels: number, reached: { depth: number }): Promise<void> {
  if (levels === 0) return;
  await Promise.resolve();
  reached.depth++;
  await nested(levels - 1, reached);
}

describe('settleContinuations', () => {
  it('resolves after every continuation queued before it, at any depth', async () => {
    for (const depth of [1, 2, 10, 500]) {
      const thens = { depth: 0 };
      const awaits = { depth: 0 };
      void chain(depth, thens);
      void nested(depth, awaits);
      await settleContinuations();
      expect(thens.depth).toBe(depth);
      expect(awaits.depth).toBe(depth);
    }
  });

  it('also runs nextTicks scheduled before it and the continuations they queue', async () => {
    const order: string[] = [];
    process.nextTick(() => {
      order.push('tick');
      void Promise.resolve().then(() => order.push('after tick'));
    });
    await settleContinuations();
    expect(order).toEqual(['tick', 'after tick']);
  });

  it('lets the event loop turn at least once every DRAINS_PER_LOOP_TURN drains', async () => {
    let turned = false;
    setImmediate(() => (turned = true));
    for (let i = 0; i < DRAINS_PER_LOOP_TURN && !turned; i++) await settleContinuations();
    expect(turned).toBe(true);
  });
});
