/**
 * The seeded life of one simulated KYC verification: NOT_STARTED when it is created, then OPEN, maybe
 * ON_HOLD, then CLOSED with a decision (ACCEPT / REJECT / REVIEW by configured weights), each step a
 * random delay (uniform in [minStepSeconds, maxStepSeconds]) after the previous one on the sim clock.
 * The generator is seeded from the config seed and the verification's firm and external id, so the same
 * verification always takes the same path whatever else happens in the sim.
 */
import type { KycDecision, KnownKycStatus } from '../../domain/enums.ts';
import type { Decimal } from '../../domain/decimal.ts';
import { seededRandom, type Random } from '../activity/random.ts';

export interface KycStep {
  /** Sim-clock time (ms) when the step happens. */
  at: number;
  status: KnownKycStatus;
  decision: KycDecision;
  subStatus: string;
}

export interface ScheduleSettings {
  seed: number;
  minStepSeconds: number;
  maxStepSeconds: number;
  holdProbability: Decimal;
  decisionWeights: { accept: Decimal; reject: Decimal; review: Decimal };
}

export const SUB_STATUS = {
  NOT_STARTED: 'AWAITING_CHECKS',
  OPEN: 'IN_PROGRESS',
  ON_HOLD: 'ADDITIONAL_DOCUMENTS_REQUESTED',
  ACCEPT: 'APPROVED',
  REJECT: 'DECLINED',
  REVIEW: 'MANUAL_REVIEW_REQUIRED',
} as const;

/** FNV-1a over the text, mixed with the seed: a 32-bit seed per verification. */
export function verificationSeed(seed: number, firm: string, externalId: string): number {
  let hash = 0x811c9dc5 ^ seed;
  for (const char of `${firm}\u0000${externalId}`) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  return hash | 0;
}

function pickDecision(random: Random, weights: ScheduleSettings['decisionWeights']): 'ACCEPT' | 'REJECT' | 'REVIEW' {
  const accept = weights.accept.toNumber();
  const reject = weights.reject.toNumber();
  const total = accept + reject + weights.review.toNumber();
  const draw = random.next() * total;
  if (draw < accept) return 'ACCEPT';
  if (draw < accept + reject) return 'REJECT';
  return 'REVIEW';
}

/** The steps after NOT_STARTED, for a verification created at `startAt`. */
export function planVerification(settings: ScheduleSettings, firm: string, externalId: string, startAt: number): KycStep[] {
  const random = seededRandom(verificationSeed(settings.seed, firm, externalId));
  const minMs = Math.round(settings.minStepSeconds * 1000);
  const maxMs = Math.round(settings.maxStepSeconds * 1000);
  let at = startAt;
  const delay = () => (at += random.int(minMs, maxMs));
  const steps: KycStep[] = [{ at: delay(), status: 'OPEN', decision: '', subStatus: SUB_STATUS.OPEN }];
  if (random.chance(settings.holdProbability.toNumber()))
    steps.push({ at: delay(), status: 'ON_HOLD', decision: '', subStatus: SUB_STATUS.ON_HOLD });
  const decision = pickDecision(random, settings.decisionWeights);
  steps.push({ at: delay(), status: 'CLOSED', decision, subStatus: SUB_STATUS[decision] });
  return steps;
}
