/**
 * The message throttle in backtests: the same send queue as live, drained on the backtest's virtual clock
 * (no wall timers), so a run whose strategy asks for more than risk.maxMessagesPerSecond gives the same
 * report.json twice, and most of its intents wait instead of being refused (against risk.maxQueuedMessages 0,
 * the old refusal at once).
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stableStringify } from '../../backtest/results/stable-json.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { writeSyntheticHistory } from '../../backtest/tape/synthetic-history.ts';
import { parseRiskConfig, type RiskConfigInput } from '../../src/engine/risk/index.ts';
import { loadStrategy } from '../../src/engine/strategy/loader.ts';
import { tempDir, testConfig } from './helpers/history-file.ts';

let dir: string | undefined;
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const SYMBOLS = ['SYN-A', 'SYN-B', 'SYN-C', 'SYN-D'];

describe('the send queue in a backtest', () => {
  it('gives the same report twice, and queues most of what a refusing throttle would refuse', async () => {
    dir = tempDir();
    const data = path.join(dir, 'history.jsonl');
    await writeSyntheticHistory(data, { trades: 4000, symbols: SYMBOLS, seed: 11, moveProbability: 0.3 });
    const strategy = await loadStrategy('market-maker');
    const params = { symbols: SYMBOLS, halfSpread: '0.01', quoteQty: '2', maxInventory: '20' };
    const run = async (risk: RiskConfigInput) => {
      const config = { ...testConfig({ latency: { insertMs: 20, cancelMs: 20, replaceMs: 20 } }), risk: parseRiskConfig(risk) };
      const { report } = await runBacktest({ data, config, strategy, params });
      return { text: stableStringify(report), report: report as { fills: number; orders: number; refusals?: Record<string, number> } };
    };
    const queued = await run({ maxMessagesPerSecond: 3 });
    expect((await run({ maxMessagesPerSecond: 3 })).text).toBe(queued.text);
    const refusing = await run({ maxMessagesPerSecond: 3, maxQueuedMessages: 0 });
    const rate = (r: { refusals?: Record<string, number> }) => r.refusals?.['RISK_ORDER_RATE'] ?? 0;
    // at 3 messages/s for eight quotes some intents still wait past maxQueueAgeMs (2 s), far fewer than are refused at once
    expect(rate(refusing.report)).toBeGreaterThan(0);
    expect(rate(queued.report)).toBeLessThan(rate(refusing.report) / 4);
    expect(queued.report.orders).toBeGreaterThan(0);
    expect(queued.report.fills).toBeGreaterThan(0);
  });
});
