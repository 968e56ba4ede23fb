/**
 * Config rule `maxEventPosition`: per event group and account, the gross worst-case exposure, the sum over
 * the group's symbols of max(position + open buys, open sells - position), stays within the limit
 * (RISK_MAX_EVENT_POSITION). An order that does not raise the gross (it only adds to the smaller side of a
 * symbol) passes even when the group is already over the limit. An instrument without an event group is
 * its own group (then this is a limit on one symbol counting both sides). Symbols the context has no
 * reference data for cannot be placed in a group and are not counted.
 */
import { ZERO, type Decimal } from '../../../domain/decimal.ts';
import type { OrderRule, RuleInput } from './rule.ts';
import { fmt } from './rule.ts';
import { plus } from '../exposure.ts';

function groupSymbols({ candidate, instrument, context, exposure }: RuleInput): readonly string[] {
  if (instrument.eventGroup === undefined) return [candidate.symbol];
  const symbols = new Set([candidate.symbol]);
  for (const symbol of exposure.symbolsOf(candidate.account)) {
    if (context.instrument(symbol)?.eventGroup === instrument.eventGroup) symbols.add(symbol);
  }
  return [...symbols];
}

export function maxEventPositionRule(maxEventPosition: Decimal): OrderRule {
  return {
    name: 'maxEventPosition',
    check: (input) => {
      const { candidate, instrument, exposure } = input;
      // Only the candidate's own symbol changes with the candidate: the group's gross rises exactly when that
      // symbol's worst case does, so an order that does not raise it passes without summing the group.
      const mineBefore = exposure.worstAbs(candidate.symbol, candidate.account);
      const mineAfter = exposure.worstAbs(candidate.symbol, candidate.account, candidate);
      if (mineAfter.lte(mineBefore)) return undefined;
      let others = ZERO;
      for (const symbol of groupSymbols(input))
        if (symbol !== candidate.symbol) others = plus(others, exposure.worstAbs(symbol, candidate.account));
      const before = plus(others, mineBefore);
      const after = plus(others, mineAfter);
      if (after.lte(maxEventPosition)) return undefined;
      const group = instrument.eventGroup ?? candidate.symbol;
      return {
        code: 'RISK_MAX_EVENT_POSITION',
        message:
          `gross exposure ${fmt(after)} in event group ${group} (${candidate.account}) ` +
          `would exceed maxEventPosition ${fmt(maxEventPosition)} (now ${fmt(before)})`,
      };
    },
  };
}
