/**
 * Trade searches never reveal a counterparty (issue 21, point 1). A trade between two firms is searched
 * through all three doors (gateway `search_trades`, `/v1/report/trades/search`, gRPC `SearchTrades`) and the
 * trade capture stream: each firm sees its own side in full and, of the other side, only what the tape needs
 * (price, quantity, time, side, trade id, state), nothing that identifies the other firm (account,
 * participant, clord_id, order id, execution id). A search filter naming the other side's order or execution
 * id finds nothing (no probing). The backtest's compact history line is written from the anonymised form.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GrpcExchangeClient } from '../../../src/exchange/grpc/index.ts';
import { instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import type { Trade } from '../../../src/domain/types/execution.ts';
import type { InstrumentScales } from '../../../src/domain/scales.ts';
import { compactTradeOf } from '../../../backtest/history/compact-trade.ts';
import {
  ALICE,
  ALICE_MAIN,
  ALICE_PASSWORD,
  CAROL_MAIN,
  CLIENT,
  CLIENT_OTHER_FIRM,
  SYMBOL,
  at,
  startFamilyA,
  type FamilyAHarness,
  type Json,
} from '../familya/helpers/harness.ts';

let h: FamilyAHarness;
const gatewayTokens = new Map<string, string>();
let aliceOrder = '';
let carolOrder = '';
let aliceExec = '';
let carolExec = '';

async function gateway(user: string, path: string, body: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${h.sim.ready.gateway}/api/v1beta1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: gatewayTokens.get(user) ?? '' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

async function login(username: string, password: string): Promise<void> {
  const response = await fetch(`${h.sim.ready.gateway}/auth/v1beta1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  gatewayTokens.set(username, String(((await response.json()) as Json)['accessToken']));
}

function grpcClient(clientId: string): GrpcExchangeClient {
  const catalog = instrumentCatalog(
    h.sim.core.instruments().map((i) => ({ symbol: i.symbol, priceScale: i.scales.priceScale, fractionalQtyScale: i.scales.qtyScale })),
  );
  let token: Promise<string> | undefined;
  return new GrpcExchangeClient({ address: h.sim.ready.grpc, instruments: catalog, getToken: () => (token ??= h.token(clientId)) });
}

const scalesOf = (): InstrumentScales => {
  const scales = h.sim.core.instrument(SYMBOL)?.scales;
  if (scales === undefined) throw new Error('no instrument');
  return scales;
};

/** Words that identify alice's firm or her side of the trade, none of which carol may see. */
const aliceSecrets = () => ['alice', 'firms/demo', 'alice-secret-clord', aliceOrder, aliceExec];
const carolSecrets = () => ['carol', 'firms/other', 'carol-secret-clord', carolOrder, carolExec];

function expectNone(json: unknown, secrets: readonly string[]): void {
  const text = JSON.stringify(json);
  for (const secret of secrets) expect(text, `leaks ${secret}`).not.toContain(secret);
}

beforeAll(async () => {
  h = await startFamilyA();
  await login('alice', ALICE_PASSWORD);
  await login('carol', 'Demo-Carol-Pass-2026');
  const rest = await gateway('alice', 'insert_order', {
    symbol: SYMBOL,
    side: 'SIDE_SELL',
    order_qty: '2',
    price: '55',
    type: 'ORDER_TYPE_LIMIT',
    time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    account: ALICE_MAIN,
    clord_id: 'alice-secret-clord',
  });
  aliceOrder = String(rest.body['order_id']);
  const take = await gateway('carol', 'insert_order', {
    symbol: SYMBOL,
    side: 'SIDE_BUY',
    order_qty: '2',
    price: '55',
    type: 'ORDER_TYPE_LIMIT',
    time_in_force: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
    account: CAROL_MAIN,
    clord_id: 'carol-secret-clord',
  });
  carolOrder = String(take.body['order_id']);
  const trade = h.sim.core.trades().at(-1);
  if (trade === undefined) throw new Error('no trade');
  aliceExec = trade.passive.id;
  carolExec = trade.aggressor.id;
});
afterAll(async () => h.close());

describe('a trade between two firms, searched by each', () => {
  it('gateway search_trades: own side in full, the other side without anything that identifies its firm', async () => {
    const carol = await gateway('carol', 'search_trades', { symbol: SYMBOL });
    expect(carol.status).toBe(200);
    const [trade] = carol.body['trade'] as Json[];
    expect(at(trade, 'aggressor.order.account')).toBe(CAROL_MAIN);
    expect(at(trade, 'aggressor.order.clord_id')).toBe('carol-secret-clord');
    expect(at(trade, 'aggressor.order.id')).toBe(carolOrder);
    // the tape's facts stay
    expect(at(trade, 'id')).toMatch(/T/);
    expect(at(trade, 'state')).toBe('TRADE_STATE_NEW');
    expect(at(trade, 'passive.last_px')).toBe('55');
    expect(at(trade, 'passive.last_shares')).toBe('2');
    expect(at(trade, 'passive.transact_time')).toBeDefined();
    expect(at(trade, 'passive.order.side')).toBe('SIDE_SELL');
    expect(at(trade, 'passive.order.symbol')).toBe(SYMBOL);
    expectNone(trade, aliceSecrets());

    const alice = await gateway('alice', 'search_trades', { symbol: SYMBOL });
    const [seen] = alice.body['trade'] as Json[];
    expect(at(seen, 'passive.order.clord_id')).toBe('alice-secret-clord');
    expect(at(seen, 'aggressor.order.side')).toBe('SIDE_BUY');
    expectNone(seen, carolSecrets());
  });

  it('/v1/report/trades/search: the same view for each firm', async () => {
    const other = await h.call('POST', '/v1/report/trades/search', { token: await h.token(CLIENT_OTHER_FIRM), body: { symbol: SYMBOL } });
    expect(other.status).toBe(200);
    const [trade] = other.body['trade'] as Json[];
    expect(at(trade, 'aggressor.order.clordId')).toBe('carol-secret-clord');
    expect(at(trade, 'passive.lastPx')).toBe('55');
    expectNone(trade, aliceSecrets());
    const demo = await h.call('POST', '/v1/report/trades/search', { token: await h.token(CLIENT), participant: ALICE, body: {} });
    const [seen] = demo.body['trade'] as Json[];
    expect(at(seen, 'passive.order.account')).toBe(ALICE_MAIN);
    expectNone(seen, carolSecrets());
  });

  it('gRPC SearchTrades and the trade capture stream: the same view', async () => {
    const client = grpcClient(CLIENT_OTHER_FIRM);
    try {
      const { trades } = await client.searchTrades({ symbol: SYMBOL });
      expect(trades).toHaveLength(1);
      const trade = trades[0] as Trade;
      expect(trade.aggressor.order.clordId).toBe('carol-secret-clord');
      expect(trade.passive.order.account).toBe('');
      expect(trade.passive.order.participant).toBe('');
      expect(trade.passive.order.clordId).toBe('');
      expect(trade.passive.order.id).toBe('');
      expect(trade.passive.id).toBe('');
      expect(trade.passive.lastPx.toString()).toBe('0.55');
      expect(trade.passive.order.side).toBe('SIDE_SELL');
      // the backtest's compact line reads the tape's facts only: it works on the other firm's view too
      expect(compactTradeOf(trade, scalesOf())).toMatchObject({ side: 'BUY', symbol: SYMBOL });
    } finally {
      client.close();
    }
    const demo = grpcClient(CLIENT);
    try {
      const { trades } = await demo.searchTrades({ symbol: SYMBOL });
      const trade = trades[0] as Trade;
      expect(trade.passive.order.clordId).toBe('alice-secret-clord');
      expect(trade.aggressor.order.account).toBe('');
      expect(trade.aggressor.order.id).toBe('');
      expect(trade.aggressor.id).toBe('');
      // the aggressor's side and the tape's facts survive the anonymisation: the history line is the same
      expect(compactTradeOf(trade, scalesOf())).toMatchObject({ side: 'BUY', symbol: SYMBOL });
    } finally {
      demo.close();
    }
  });

  it('a filter naming the other side cannot probe it: its order id, execution id or clord_id finds nothing', async () => {
    for (const [field, value] of [
      ['order_id', aliceOrder],
      ['exec_id', aliceExec],
    ] as const) {
      const carol = await gateway('carol', 'search_trades', { [field]: value });
      expect(carol.status).toBe(200);
      expect(carol.body['trade'] ?? []).toEqual([]);
      const own = await gateway('alice', 'search_trades', { [field]: value });
      expect(own.body['trade'] as Json[]).toHaveLength(1);
    }
  });
});
