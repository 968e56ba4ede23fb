/**
 * Enum tables: zero values first, full proto names, unique entries, and the DAY default helper.
 */
import { describe, expect, test } from 'vitest';
import * as domain from '../../src/domain/index.ts';

const tables: Record<string, readonly string[]> = {
  SIDES: domain.SIDES,
  ORDER_TYPES: domain.ORDER_TYPES,
  TIME_IN_FORCES: domain.TIME_IN_FORCES,
  ORDER_STATES: domain.ORDER_STATES,
  EXECUTION_TYPES: domain.EXECUTION_TYPES,
  ORD_REJECT_REASONS: domain.ORD_REJECT_REASONS,
  UNSOLICITED_CXL_REASONS: domain.UNSOLICITED_CXL_REASONS,
  CXL_REJ_REASONS: domain.CXL_REJ_REASONS,
  CONDITION_TRIGGER_METHODS: domain.CONDITION_TRIGGER_METHODS,
  SELF_MATCH_PREVENTION_INSTRUCTIONS: domain.SELF_MATCH_PREVENTION_INSTRUCTIONS,
  ORDER_CAPACITIES: domain.ORDER_CAPACITIES,
  MANUAL_ORDER_INDICATORS: domain.MANUAL_ORDER_INDICATORS,
  TRADE_TYPES: domain.TRADE_TYPES,
  TRADE_STATES: domain.TRADE_STATES,
  INSTRUMENT_STATES: domain.INSTRUMENT_STATES,
  CROSS_TYPES: domain.CROSS_TYPES,
};

describe('enum tables', () => {
  test.each(Object.entries(tables))('%s has unique, prefixed proto names', (_name, values) => {
    expect(new Set(values).size).toBe(values.length);
    const prefix = /^([A-Z_]+?)_(UNDEFINED|[A-Z]+)/.exec(values[0] ?? '')?.[1] ?? '';
    expect(prefix).not.toBe('');
    for (const value of values) expect(value).toMatch(/^[A-Z][A-Z_]+$/);
  });

  test('zero values follow the notes', () => {
    expect(domain.SIDES[0]).toBe('SIDE_UNDEFINED');
    expect(domain.ORDER_STATES[0]).toBe('ORDER_STATE_NEW');
    expect(domain.INSTRUMENT_STATES[0]).toBe('INSTRUMENT_STATE_CLOSED');
    expect(domain.ORD_REJECT_REASONS[0]).toBe('ORD_REJECT_REASON_EXCHANGE_OPTION');
    expect(domain.ORDER_CAPACITIES[0]).toBe('ORDER_CAPACITY_UNDEFINED');
    expect(domain.enumNumber(domain.ORDER_TYPES, 'ORDER_TYPE_LIMIT')).toBe(2);
  });

  test('an UNDEFINED time in force means DAY for matching; others are unchanged', () => {
    expect(domain.effectiveTimeInForce('TIME_IN_FORCE_UNDEFINED')).toBe('TIME_IN_FORCE_DAY');
    expect(domain.effectiveTimeInForce('TIME_IN_FORCE_FILL_OR_KILL')).toBe('TIME_IN_FORCE_FILL_OR_KILL');
  });

  test('isMember is a type guard over a table', () => {
    expect(domain.isMember(domain.SIDES, 'SIDE_BUY')).toBe(true);
    expect(domain.isMember(domain.SIDES, 'BUY')).toBe(false);
    expect(domain.isMember(domain.SIDES, 1)).toBe(false);
  });
});
