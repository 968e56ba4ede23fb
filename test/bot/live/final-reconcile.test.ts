/**
 * The run summary's reconciliation (issue 21): after the stop, the exchange's positions are booked into the
 * portfolio, so a fill the bot's streams never delivered (here: a trade the portfolio was never told of, as
 * after a reconnect) is in the summary's positions; an exchange that cannot be read (a refused port, or one
 * that never answers within the deadline) leaves the local view, flagged `reconciled: false` with the reason.
 * Against the real simulator through the gateway client and venue.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reconcileSummary } from '../../../src/bot/live/final-reconcile.ts';
import { GatewayVenue } from '../../../src/bot/venues/gateway-venue.ts';
import { liveClock } from '../../../src/engine/clock.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../../src/engine/portfolio-port.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import type { OrderRequestInput } from '../../../src/exchange/gateway/index.ts';
import { ACCOUNTS, SYMBOL, dec, startTestSim, type TestSim } from '../../exchange/gateway/helpers/sim.ts';

let t: TestSim;
beforeEach(async () => {
  t = await startTestSim({ users: ['alice', 'bob'] });
});
afterEach(async () => {
  await t.close();
});

const limit = (account: string, side: 'SIDE_BUY' | 'SIDE_SELL', qty: string): OrderRequestInput => ({
  account,
  symbol: SYMBOL,
  side,
  type: 'ORDER_TYPE_LIMIT',
  timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  orderQty: dec(qty),
  price: dec('0.40'),
});

function localPositions(portfolio: Portfolio): Record<string, string> {
  const out: Record<string, string> = {};
  for (const account of portfolio.snapshot().accounts)
    for (const p of account.positions) if (!p.qty.isZero()) out[`${account.account} ${p.symbol}`] = p.qty.toString();
  return out;
}

describe('reconcileSummary', () => {
  it("books the exchange's positions: a fill the streams never delivered is in the summary", async () => {
    const alice = t.clientFor('alice');
    const bob = t.clientFor('bob');
    await alice.insertOrder(limit(ACCOUNTS.aliceMain, 'SIDE_BUY', '3'));
    await bob.insertOrder(limit(ACCOUNTS.bobMain, 'SIDE_SELL', '3'));
    const portfolio = new Portfolio({ clock: liveClock() });
    expect(localPositions(portfolio)).toEqual({});

    const venue = new GatewayVenue({ client: alice, instruments: [] });
    const result = await reconcileSummary({
      venue,
      portfolio: portfolioPort(portfolio),
      accounts: [ACCOUNTS.aliceMain, ACCOUNTS.aliceHedge],
      log: silentLogger(),
    });
    expect(result.reconciled).toBe(true);
    expect(result.reconciled && result.differences.some((d) => d.includes(`${ACCOUNTS.aliceMain} ${SYMBOL}`))).toBe(true);
    expect(localPositions(portfolio)).toEqual({ [`${ACCOUNTS.aliceMain} ${SYMBOL}`]: '3' });
  });

  it('an exchange that refuses the connection: reconciled false with the reason, the local view kept', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = t.clientFor('alice', { gatewayUrl: `http://127.0.0.1:${port}`, retry: false });
    const portfolio = new Portfolio({ clock: liveClock() });
    const result = await reconcileSummary({
      venue: new GatewayVenue({ client, instruments: [] }),
      portfolio: portfolioPort(portfolio),
      accounts: [ACCOUNTS.aliceMain],
      log: silentLogger(),
    });
    expect(result).toEqual({ reconciled: false, reason: expect.stringMatching(/^the exchange's positions could not be read: /) });
  });

  it('an exchange that never answers: reconciled false once the deadline passes', async () => {
    const held: http.ServerResponse[] = [];
    const silent = http.createServer((_request, response) => void held.push(response));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const port = (silent.address() as AddressInfo).port;
      const client = t.clientFor('alice', { gatewayUrl: `http://127.0.0.1:${port}`, retry: false });
      const result = await reconcileSummary({
        venue: new GatewayVenue({ client, instruments: [] }),
        portfolio: portfolioPort(new Portfolio({ clock: liveClock() })),
        accounts: [ACCOUNTS.aliceMain],
        log: silentLogger(),
        timeoutMs: 300,
      });
      expect(result).toEqual({ reconciled: false, reason: expect.stringMatching(/did not answer within 300 ms/) });
    } finally {
      for (const response of held) response.destroy();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
