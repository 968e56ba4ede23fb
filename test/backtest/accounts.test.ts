// A backtest follows every account bot.accounts lists: the cross demo crosses between two of them over the
// sample tape (both legs fill, each account ends with its side of the position), with the default account
// the first listed when bot.account is absent; ctx.accounts shows them and ctx.venue says the simulated venue
// can cross. report.json names the accounts only when there is more than one (a one-account report is unchanged).
import { describe, expect, it } from 'vitest';
import { backtestSection, type BacktestConfig } from '../../backtest/config.ts';
import { runBacktest } from '../../backtest/run-backtest.ts';
import { parseConfig } from '../../src/config/index.ts';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import type { VenueView } from '../../src/engine/strategy/views.ts';
import crossDemo from '../../strategies/cross-demo.ts';
import { expectBySymbolAddsUp } from './helpers/by-symbol.ts';

const SAMPLE = 'backtest/data/sample.jsonl';
const SYMBOL = 'RAIN-NYC-2026-12-01';
const BUYER = 'firms/demo/accounts/alice-main';
const SELLER = 'firms/demo/accounts/alice-hedge';

function config(bot: string): BacktestConfig {
  return { ...parseConfig(bot), backtest: backtestSection().parse({}) } as BacktestConfig;
}

describe('backtest accounts', () => {
  it('crosses between two accounts of bot.accounts (no bot.account): both legs fill, each account holds its side', async () => {
    const seen: { accounts: readonly string[]; account: string; venue: VenueView }[] = [];
    const strategy = defineStrategy({
      ...crossDemo,
      name: 'cross-demo-watched',
      onStart(ctx) {
        seen.push({ accounts: ctx.accounts, account: ctx.account, venue: ctx.venue });
        crossDemo.onStart?.(ctx);
      },
    });
    const result = await runBacktest({
      data: SAMPLE,
      config: config(`bot: { accounts: [${BUYER}, ${SELLER}] }\n`),
      strategy,
      params: { symbol: SYMBOL, buyAccount: BUYER, sellAccount: SELLER, qty: '2', everyMs: 60000, maxCrosses: 2 },
    });
    expect(seen).toEqual([{ accounts: [BUYER, SELLER], account: BUYER, venue: { name: 'backtest', canCross: true } }]);
    const report = result.report as {
      fills: number;
      refusals: Record<string, number>;
      config: { account: string; accounts?: string[] };
      positions: Record<string, string>;
    };
    expect(report.config.account).toBe(BUYER);
    expect(report.config.accounts).toEqual([BUYER, SELLER]);
    expect(report.refusals).toEqual({});
    expect(report.fills).toBe(4);
    // net across the two accounts: flat
    expect(report.positions[SYMBOL]).toBe('0');
    expect(result.series.fills.map((f) => `${f.side} ${f.qty}`).sort()).toEqual(['BUY 2', 'BUY 2', 'SELL 2', 'SELL 2']);
    // bySymbol counts both legs of each cross, and adds up to the totals
    expect(expectBySymbolAddsUp(result.report)[SYMBOL]).toMatchObject({ fills: 4, orders: 4, position: '0' });
  });

  it('a bot.accounts that leaves bot.account out still follows the default account (listed first)', async () => {
    const seen: (readonly string[])[] = [];
    const strategy = defineStrategy({ ...crossDemo, name: 'cross-demo-accounts', onStart: (ctx) => void seen.push(ctx.accounts) });
    await runBacktest({
      data: SAMPLE,
      config: config(`bot: { account: ${BUYER}, accounts: [${SELLER}] }\n`),
      strategy,
      params: { symbol: SYMBOL, buyAccount: BUYER, sellAccount: SELLER },
    });
    expect(seen).toEqual([[BUYER, SELLER]]);
  });
});
