/**
 * `tradebot run` of config/multi-strategy.yaml (#25) against the embedded sim: the market maker on one contract
 * and the momentum taker on another in one bot; once each has filled (waited on the order stream's executions,
 * whose client order ids carry the strategy's prefix) the run stops, and run.summary's per-strategy orders,
 * fills, refusals, PnL and positions add up exactly (Decimal) to the totals, with what the final reconciliation
 * booked as `unattributed`.
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/index.ts';
import { Decimal } from '../../../src/domain/decimal.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { runLive, type RunRecorder } from '../../../src/bot/live/run-live.ts';

/** Resolves once an execution with a fill (last shares > 0) was seen for each of `prefixes`' client order ids. */
function filledBy(prefixes: readonly string[]): { stop: Promise<string>; recorder: () => RunRecorder } {
  const left = new Set(prefixes);
  let done: (reason: string) => void = () => undefined;
  const stop = new Promise<string>((resolve) => (done = resolve));
  const record: RunRecorder['record'] = ({ stream, event }) => {
    if (stream !== 'orders' || event.type !== 'execution' || event.execution.lastShares.isZero()) return;
    const clordId = event.execution.order.clordId;
    for (const prefix of left) if (clordId.startsWith(`${prefix}-`)) left.delete(prefix);
    if (left.size === 0) done('both strategies filled');
  };
  return { stop, recorder: () => ({ record, close: async () => undefined }) };
}

describe('tradebot run with bot.strategies', () => {
  it('prints a run.summary whose per-strategy parts add up exactly to the totals', { timeout: 120_000 }, async () => {
    const base = loadConfig('config/multi-strategy.yaml', { env: {} });
    const config = { ...base, bot: { ...base.bot, durationSeconds: undefined } };
    const { stop, recorder } = filledBy(['mm-rain', 'momo-fed']);
    const summary = await runLive({ config, logger: silentLogger(), stopSignal: stop, recorder, durationSeconds: 90 });
    const parts = Object.entries(summary.strategies ?? {});
    expect(parts.map(([id]) => id)).toEqual(['mm-rain', 'momo-fed']);
    const rest = summary.unattributed;
    for (const key of ['fills', 'orders', 'refusals'] as const) {
      expect(parts.reduce((n, [, p]) => n + p[key], rest?.[key] ?? 0)).toBe(summary[key]);
    }
    const pnl = parts.reduce((p, [, part]) => p.plus(part.pnl), new Decimal(rest?.pnl ?? '0'));
    expect(pnl.eq(summary.pnl)).toBe(true);
    for (const [symbol, qty] of Object.entries(summary.positions)) {
      const sum = parts.reduce((q, [, part]) => q.plus(part.positions[symbol] ?? '0'), new Decimal(rest?.positions[symbol] ?? '0'));
      expect(sum.eq(qty)).toBe(true);
    }
    expect(summary.strategies?.['mm-rain']?.fills).toBeGreaterThan(0);
    expect(summary.strategies?.['momo-fed']?.fills).toBeGreaterThan(0);
    expect(Object.keys(summary.strategies?.['mm-rain']?.positions ?? {})).toEqual(['RAIN-NYC-2026-12-01']);
    // the strategies' own orders only count as theirs: no order of the run is unattributed
    expect(rest?.orders ?? 0).toBe(0);
  });
});
