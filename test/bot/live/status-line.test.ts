/**
 * The status line of a live run: elapsed seconds, the trading state (with what holds it when restricted), PnL
 * to cents, positions per symbol or "flat", and the counts, in that order, on one line.
 */
import { describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import { formatStatusLine, type StatusInput } from '../../../src/bot/live/status-line.ts';

const input = (overrides: Partial<StatusInput> = {}): StatusInput => ({
  elapsedSeconds: 12.4,
  tradingState: 'active',
  positions: {},
  pnl: new Decimal('1.235'),
  openOrders: 4,
  orders: 31,
  fills: 7,
  refusals: 2,
  ...overrides,
});

describe('formatStatusLine', () => {
  it('shows every figure in order, flat when there are no positions', () => {
    expect(formatStatusLine(input())).toBe('12s | active | pnl 1.24 | pos [flat] | open 4 | orders 31 | fills 7 | refused 2');
  });

  it('lists positions per symbol with their signed quantities', () => {
    const line = formatStatusLine(input({ positions: { 'RAIN-NYC-2026-12-01': '-5', 'FED-CUT-2026-12': '3' } }));
    expect(line).toContain('pos [RAIN-NYC-2026-12-01 -5, FED-CUT-2026-12 3]');
  });

  it('names what holds a restricted state, and not the cause of active', () => {
    expect(formatStatusLine(input({ tradingState: 'reducing', tradingStateCause: 'operator' }))).toContain('| reducing (operator) |');
    expect(formatStatusLine(input({ tradingState: 'halted', tradingStateCause: 'dailyLoss' }))).toContain('| halted (dailyLoss) |');
    expect(formatStatusLine(input({ tradingState: 'active', tradingStateCause: 'operator' }))).toContain('| active |');
    expect(formatStatusLine(input({ tradingState: 'reducing' }))).toContain('| reducing |');
  });

  it('rounds PnL to cents (half-even), negative too but never "-0.00", and elapsed time to whole seconds', () => {
    const line = formatStatusLine(input({ pnl: new Decimal('-0.015'), elapsedSeconds: 59.6 }));
    expect(line.startsWith('60s | ')).toBe(true);
    expect(line).toContain('pnl -0.02');
    expect(formatStatusLine(input({ pnl: new Decimal('-0.004') }))).toContain('pnl 0.00');
  });
});
