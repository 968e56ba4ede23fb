/**
 * Self-match prevention. When the aggressor requests prevention, two orders self-match when they belong to
 * the SAME ACCOUNT (always, whatever their self_match_prevention_id), or when both carry the same non-empty
 * self_match_prevention_id (a shared id groups orders ACROSS accounts, e.g. all accounts of one desk).
 * Different ids never let one account trade with itself. The AGGRESSOR's instruction decides:
 *  - REJECT_AGGRESSOR: the aggressor's remaining quantity is cancelled; the resting order stays.
 *  - CANCEL_RESTING: the resting order is cancelled and matching continues with the next one.
 *  - REMOVE_BOTH: the resting order and the aggressor's remaining quantity are both cancelled.
 *  - UNDEFINED (or absent): no prevention; self trades are allowed (the proto zero value means "not
 *    requested"; the bot's own risk layer does its own self-match checks).
 * Fills done before the conflicting resting order is reached stand.
 */
import type { SelfMatchPrevention } from './types.ts';

export const SMP_NONE = 0;
export const SMP_CANCEL_AGGRESSOR = 1;
export const SMP_CANCEL_RESTING = 2;
export const SMP_CANCEL_BOTH = 3;
export type SmpMode = 0 | 1 | 2 | 3;

export const SMP_TEXT = 'self-match prevention';

/** True when orders of (account, id) and (otherAccount, otherId) must not trade with each other under SMP. */
export function isSelfMatch(account: string, id: string | undefined, otherAccount: string, otherId: string | undefined): boolean {
  return account === otherAccount || (id !== undefined && id !== '' && id === otherId);
}

export function smpMode(instruction: SelfMatchPrevention | undefined): SmpMode {
  switch (instruction) {
    case 'SELF_MATCH_PREVENTION_INSTRUCTION_REJECT_AGGRESSOR':
      return SMP_CANCEL_AGGRESSOR;
    case 'SELF_MATCH_PREVENTION_INSTRUCTION_CANCEL_RESTING':
      return SMP_CANCEL_RESTING;
    case 'SELF_MATCH_PREVENTION_INSTRUCTION_REMOVE_BOTH':
      return SMP_CANCEL_BOTH;
    default:
      return SMP_NONE;
  }
}
