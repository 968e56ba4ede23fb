// The seeded KYC schedule: the same verification always takes the same path, statuses come in the
// spec's order with delays inside the configured bounds, and decisions follow the configured weights.
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import { planVerification, type ScheduleSettings } from '../../../src/sim/kyc/schedule.ts';
import { backoffMs } from '../../../src/sim/kyc/delivery-queue.ts';

const settings = (over: Partial<ScheduleSettings> = {}): ScheduleSettings => ({
  seed: 7,
  minStepSeconds: 2,
  maxStepSeconds: 10,
  holdProbability: new Decimal('0.25'),
  decisionWeights: { accept: new Decimal('0.8'), reject: new Decimal('0.1'), review: new Decimal('0.1') },
  ...over,
});

describe('planVerification', () => {
  it('is deterministic for a seed, firm and external id', () => {
    expect(planVerification(settings(), 'demo', 'ext-1', 0)).toEqual(planVerification(settings(), 'demo', 'ext-1', 0));
    const others = ['ext-2', 'ext-3', 'ext-4', 'ext-5'].map((id) => JSON.stringify(planVerification(settings(), 'demo', id, 0)));
    expect(new Set(others).size).toBeGreaterThan(1);
  });

  it('goes OPEN, maybe ON_HOLD, then CLOSED with a decision, each step 2..10 s after the last', () => {
    for (let i = 0; i < 200; i++) {
      const steps = planVerification(settings(), 'demo', `ext-${i}`, 1_000);
      const names = steps.map((s) => s.status);
      expect([
        ['OPEN', 'CLOSED'],
        ['OPEN', 'ON_HOLD', 'CLOSED'],
      ]).toContainEqual(names);
      let previous = 1_000;
      for (const step of steps) {
        expect(step.at - previous).toBeGreaterThanOrEqual(2_000);
        expect(step.at - previous).toBeLessThanOrEqual(10_000);
        previous = step.at;
      }
      expect(steps.at(-1)?.decision).toMatch(/^(ACCEPT|REJECT|REVIEW)$/);
      expect(steps.slice(0, -1).every((s) => s.decision === '')).toBe(true);
    }
  });

  it('follows the decision weights and the hold probability', () => {
    const onlyReview = settings({
      holdProbability: new Decimal(0),
      decisionWeights: { accept: new Decimal(0), reject: new Decimal(0), review: new Decimal(1) },
    });
    for (let i = 0; i < 50; i++) {
      const steps = planVerification(onlyReview, 'demo', `ext-${i}`, 0);
      expect(steps.map((s) => `${s.status}/${s.decision}/${s.subStatus}`)).toEqual([
        'OPEN//IN_PROGRESS',
        'CLOSED/REVIEW/MANUAL_REVIEW_REQUIRED',
      ]);
    }
    const decisions = Array.from({ length: 1000 }, (_, i) => planVerification(settings(), 'demo', `ext-${i}`, 0).at(-1)?.decision);
    const accepted = decisions.filter((d) => d === 'ACCEPT').length;
    expect(accepted).toBeGreaterThan(700);
    expect(accepted).toBeLessThan(900);
  });
});

describe('backoffMs', () => {
  it('doubles from the initial backoff and is capped', () => {
    const retry = { maxAttempts: 6, initialBackoffMs: 1000, maxBackoffMs: 5000 };
    expect([1, 2, 3, 4, 5].map((attempt) => backoffMs(attempt, retry))).toEqual([1000, 2000, 4000, 5000, 5000]);
  });
});
