/**
 * A `bot.strategies` config in a backtest (#25): config/multi-strategy.yaml (the market maker on one contract,
 * the momentum taker on another, each with its own limits) over the sample history runs through the same
 * pipeline as live; report.json has each strategy's part, and the parts add up exactly to the totals
 * (fills, orders, refusals, PnL as Decimal, positions); the same config gives the same report twice.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadBacktestConfig } from '../../backtest/config.ts';
import { stableStringify } from '../../backtest/results/stable-json.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { Decimal } from '../../src/domain/decimal.ts';
import type { StrategySummary } from '../../src/bot/strategy-members.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const CONFIG = path.join(ROOT, 'config/multi-strategy.yaml');
const DATA = path.join(ROOT, 'backtest/data/sample.jsonl');

interface MultiReport {
  fills: number;
  orders: number;
  pnl: { total: string };
  strategies: Record<string, StrategySummary>;
  unattributed?: StrategySummary;
}

describe('bot.strategies in a backtest', () => {
  it('reports each strategy, the parts adding up exactly to the totals; the same report twice', async () => {
    const config = loadBacktestConfig(CONFIG);
    const run = async () => (await runBacktest({ data: DATA, config, configFile: CONFIG })).report as unknown as MultiReport;
    const report = await run();
    expect(stableStringify(await run())).toBe(stableStringify(report));
    const parts = Object.entries(report.strategies);
    expect(parts.map(([id]) => id)).toEqual(['mm-rain', 'momo-fed']);
    expect(report.unattributed).toBeUndefined();
    const sum = (key: 'fills' | 'orders') => parts.reduce((n, [, p]) => n + p[key], 0);
    expect(sum('fills')).toBe(report.fills);
    expect(sum('orders')).toBe(report.orders);
    for (const [, part] of parts) {
      expect(part.fills).toBeGreaterThan(0);
      expect(part.orders).toBeGreaterThan(0);
    }
    expect(Object.keys(report.strategies['mm-rain']?.positions ?? {})).toEqual(['RAIN-NYC-2026-12-01']);
    expect(Object.keys(report.strategies['momo-fed']?.positions ?? {})).toEqual(['FED-CUT-2026-12']);
    const pnl = parts.reduce((p, [, part]) => p.plus(part.pnl), new Decimal(0));
    expect(pnl.eq(report.pnl.total)).toBe(true);
  });
});
