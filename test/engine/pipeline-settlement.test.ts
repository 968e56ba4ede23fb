/**
 * Live settlement of an expired contract, the whole pipeline against the simulator: the market maker builds a
 * position, then the exchange settles the contract. Settled at 1.00, the book update (EXPIRED, settlement
 * price 1) settles the local position at once (realized PnL booked, position flat, settledAt 1) and one
 * reconciliation follows, after which cash and position agree with the exchange without any adjustment.
 * Settled at 0.00 (the stream cannot tell that from "expired, not settled yet"), the reconciliation the book
 * update asks for finds the position gone at the exchange and settles it locally at 0. Before the fix the
 * pipeline ignored the instrument state: the position stayed open. Every wait is on engine events.
 */
import { afterEach, describe, expect, it } from 'vitest';
import marketMaker from '../../strategies/market-maker.ts';
import { ALICE_MAIN, SYMBOL, startPipelineSim, type PipelineSim } from './helpers/pipeline-sim.ts';

const MM_PARAMS = { symbols: [SYMBOL], halfSpread: '0.01', quoteQty: '5', maxInventory: '50', skewPerContract: '0' };

let t: PipelineSim | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('settlement of an expired contract while the pipeline runs (against the simulator)', () => {
  it.for([1, 0] as const)(
    'settled at %i: the local position closes at the settlement price with realized PnL, then one reconciliation',
    async (price) => {
      t = await startPipelineSim({ strategy: marketMaker, params: MM_PARAMS, riskYaml: '  maxPosition: "10"' });
      const { pipeline, portfolio, port, sim } = t;
      await t.driveUntil(() => t?.exchangePosition(ALICE_MAIN, SYMBOL) !== 0, 'the bot holds a position');
      await t.waitUntil(
        () =>
          pipeline.counters.reconciliations >= 1 &&
          t?.venue.inFlight === 0 &&
          port.position(SYMBOL, ALICE_MAIN).toNumber() === t.exchangePosition(ALICE_MAIN, SYMBOL),
        'the start-up reconciliation is done and the local position matches the exchange',
      );
      const before = portfolio.position(ALICE_MAIN, SYMBOL);
      const adjustments = portfolio.snapshot().totals.adjustments;
      const reconciliations = pipeline.counters.reconciliations;
      expect(before.qty.isZero()).toBe(false);

      sim.core.settle(SYMBOL, price);
      await t.waitUntil(
        () => pipeline.counters.reconciliations > reconciliations && portfolio.position(ALICE_MAIN, SYMBOL).settledAt !== undefined,
        'the settlement is booked and reconciled',
      );

      const after = portfolio.position(ALICE_MAIN, SYMBOL);
      expect(after.qty.toString()).toBe('0');
      expect(after.settledAt?.toString()).toBe(String(price));
      // realized PnL: the closed position at the settlement price minus its cost
      expect(after.realizedPnl.toString()).toBe(before.realizedPnl.plus(before.qty.times(price)).minus(before.costBasis).toString());
      expect(t.exchangePosition(ALICE_MAIN, SYMBOL)).toBe(0);
      // the reconciliation after the settlement found nothing to correct
      expect(portfolio.snapshot().totals.adjustments.toString()).toBe(adjustments.toString());
      expect(portfolio.account(ALICE_MAIN)?.cash.toString()).toBe(sim.core.ledger.balance(ALICE_MAIN).cash.toString());
    },
  );
});
