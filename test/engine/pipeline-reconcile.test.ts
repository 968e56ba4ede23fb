/**
 * The start-up reconciliation against the simulator: the bot's portfolio starts without cash (live runs are
 * not told the balance), and the first reconciliation takes the exchange's cash as the starting point of
 * each account, so it reports no difference and books no adjustment (it used to warn "local cash 0,
 * exchange 100000" for every account at every start). Every wait is on engine events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineStrategy } from '../../src/engine/strategy/define-strategy.ts';
import { ALICE_HEDGE, ALICE_MAIN, SYMBOL, startPipelineSim, type PipelineSim } from './helpers/pipeline-sim.ts';

let t: PipelineSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const idle = defineStrategy({ name: 'idle', params: z.object({ symbols: z.array(z.string()) }) });

describe('start-up reconciliation', () => {
  it("takes each account's exchange cash as its starting point: no difference, no adjustment", async () => {
    t = await startPipelineSim({ strategy: idle, params: { symbols: [SYMBOL] }, activity: false });
    const { pipeline, portfolio, port } = t;
    const differences: string[] = [];
    const reconcile = port.reconcile;
    port.reconcile = (positions, balances) => {
      const found = reconcile(positions, balances);
      differences.push(...found);
      return found;
    };
    await t.waitUntil(() => pipeline.counters.reconciliations >= 1, 'the start-up reconciliation');
    expect(differences).toEqual([]);
    for (const account of [ALICE_MAIN, ALICE_HEDGE]) {
      expect(portfolio.account(account)?.startingCash.toString()).toBe('100000');
      expect(portfolio.account(account)?.cash.toString()).toBe('100000');
      expect(portfolio.account(account)?.adjustments.toString()).toBe('0');
    }
  });
});
