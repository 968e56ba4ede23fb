/**
 * The stop sequence on a VirtualClock: the stop grace ends as soon as nothing is in flight or after its
 * engine time (0: at once), and only requests in flight or orders that never rest hold it; `stopPipeline`
 * runs onStop as a step, waits the grace, closes the strategy, cancels what is left, waits for the adapter,
 * then ends the subscriptions and the tracker.
 */
import { Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import { DEFAULT_STOP_GRACE_MS, stopGrace, stopPipeline } from '../../../src/engine/pipeline/stop.ts';
import type { StrategyRuntime } from '../../../src/engine/strategy/runtime.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { T0, request } from '../orders/fixtures.ts';

function rig() {
  const clock = new VirtualClock(T0);
  const tracker = new OrderTracker({ clock });
  return { clock, tracker };
}

const never = () => false;

describe('stopGrace', () => {
  it('nothing in flight: settled at once', async () => {
    const { clock, tracker } = rig();
    tracker.submitted(request());
    tracker.acknowledged('c1', 'O1'); // resting: does not hold the grace
    await expect(stopGrace({ clock, tracker, isImmediate: never }, 1000)).resolves.toBe('settled');
  });

  it('an insert in flight holds it until acknowledged', async () => {
    const { clock, tracker } = rig();
    tracker.submitted(request());
    const outcome = stopGrace({ clock, tracker, isImmediate: never }, 1000);
    clock.advanceTo(T0 + 500);
    tracker.acknowledged('c1', 'O1');
    await expect(outcome).resolves.toBe('settled');
    expect(clock.nextActionTime()).toBe(Number.POSITIVE_INFINITY); // its timer ended with it
  });

  it('ends after graceMs of engine time when the outcome never comes; 0 ends it at once', async () => {
    const { clock, tracker } = rig();
    tracker.submitted(request());
    let outcome: string | undefined;
    void stopGrace({ clock, tracker, isImmediate: never }, 1000).then((o) => (outcome = o));
    clock.advanceTo(T0 + 999);
    await Promise.resolve();
    expect(outcome).toBeUndefined();
    clock.advanceTo(T0 + 1000);
    await Promise.resolve();
    expect(outcome).toBe('timeout');
    await expect(stopGrace({ clock, tracker, isImmediate: never }, 0)).resolves.toBe('timeout');
  });

  it('an order that never rests holds it while open', async () => {
    const { clock, tracker } = rig();
    tracker.submitted(request());
    tracker.acknowledged('c1', 'O1');
    await expect(stopGrace({ clock, tracker, isImmediate: (id) => id === 'c1' }, 0)).resolves.toBe('timeout');
  });
});

describe('stopPipeline', () => {
  it('onStop as a step, the grace, close, cancels, the adapter idle, then the subscriptions and the tracker end', async () => {
    const { clock, tracker } = rig();
    const log: string[] = [];
    const runtime = { stop: () => log.push('onStop'), close: () => log.push('close') } as unknown as StrategyRuntime;
    const strategy = { runtime: runtime as StrategyRuntime | undefined };
    const subscriptions = new Subscription(() => log.push('unsubscribed'));
    tracker.updates$.subscribe({ complete: () => log.push('tracker closed') });
    tracker.submitted(request());
    const stopped = stopPipeline({
      clock,
      tracker,
      isImmediate: never,
      log: silentLogger(),
      step: (work) => {
        work();
        log.push('flush');
      },
      strategy,
      stopGraceMs: undefined,
      cancelAllOpen: async () => void log.push('cancel all'),
      idle: async () => void log.push('idle'),
      journal: undefined,
      subscriptions,
    });
    await Promise.resolve();
    expect(log).toEqual(['onStop', 'flush']);
    clock.advanceTo(T0 + DEFAULT_STOP_GRACE_MS);
    await stopped;
    expect(log).toEqual(['onStop', 'flush', 'close', 'cancel all', 'idle', 'unsubscribed', 'tracker closed']);
    expect(strategy.runtime).toBeUndefined();
  });
});
