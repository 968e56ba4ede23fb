// insert_order_cross retried by the gateway client: the sim answers a repeated cross (same cross_id and leg
// clord_ids) with the earlier legs, so a reply lost after the cross executed never makes a second pair of
// orders or a second trade.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CrossOrderInput, GatewayClient } from '../../../src/exchange/gateway/index.ts';
import { ACCOUNTS, SYMBOL, dec, startTestSim, type TestSim } from '../../exchange/gateway/helpers/sim.ts';

const CROSS_PATH = '/api/v1beta1/insert_order_cross';

const leg = (side: 'SIDE_BUY' | 'SIDE_SELL', account: string) => ({
  account,
  symbol: SYMBOL,
  side,
  type: 'ORDER_TYPE_LIMIT' as const,
  timeInForce: 'TIME_IN_FORCE_DAY' as const,
  orderQty: dec('5'),
  price: dec('0.40'),
});

const CROSS: CrossOrderInput = {
  crossId: 'retry-1',
  requests: [leg('SIDE_BUY', ACCOUNTS.aliceMain), leg('SIDE_SELL', ACCOUNTS.aliceHedge)],
};

describe('a retried cross', () => {
  let t: TestSim;
  let alice: GatewayClient;

  beforeEach(async () => {
    t = await startTestSim({ users: ['alice'] });
    alice = t.clientFor('alice', {
      newClordId: (() => {
        let n = 0;
        return () => `cx-${++n}`;
      })(),
    });
  });
  afterEach(() => t.close());

  it('whose first reply was cut after the cross executed gets the same legs and makes one trade', async () => {
    t.sim.faults.resetNext(1, { path: CROSS_PATH });
    const result = await alice.insertOrderCross(CROSS);
    expect(t.sim.faults.stats.resets).toBe(1);
    expect(result.clordIds).toEqual(['cx-1', 'cx-2']);
    const orders = await alice.searchOrders({});
    expect(orders.orders.map((o) => o.id).sort()).toEqual(result.responses.map((r) => r.orderId).sort());
    expect(orders.orders.map((o) => o.state)).toEqual(['ORDER_STATE_FILLED', 'ORDER_STATE_FILLED']);
    const trades = await alice.searchTrades({});
    expect(trades.trades).toHaveLength(1);
  });

  it('posted twice with the same ids answers the earlier legs the second time', async () => {
    const first = await alice.insertOrderCross({ ...CROSS, requests: CROSS.requests.map((r, i) => ({ ...r, clordId: `fixed-${i}` })) });
    const second = await alice.insertOrderCross({ ...CROSS, requests: CROSS.requests.map((r, i) => ({ ...r, clordId: `fixed-${i}` })) });
    expect(second.responses).toEqual(first.responses);
    expect((await alice.searchOrders({})).orders).toHaveLength(2);
    expect((await alice.searchTrades({})).trades).toHaveLength(1);
  });
});
