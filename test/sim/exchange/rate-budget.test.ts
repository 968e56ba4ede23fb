/**
 * One order-entry budget per firm across every door (issue 21, `/v1` order entry had no rate limit): the
 * firm's `sim.gateway.rateLimitPerSecond` token bucket is spent by gateway calls, `/v1/trading/...` order entry
 * and gRPC OrderEntryAPI calls alike; once it is empty each door refuses with its RESOURCE_EXHAUSTED (429 with
 * `retry-after` over HTTP), another firm is unaffected, and the budget refills with the exchange's clock.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { status } from '@grpc/grpc-js';
import { Decimal } from '../../../src/domain/decimal.ts';
import { GrpcExchangeClient } from '../../../src/exchange/grpc/index.ts';
import { instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import {
  ALICE,
  ALICE_MAIN,
  ALICE_PASSWORD,
  CAROL,
  CAROL_MAIN,
  CLIENT,
  CLIENT_OTHER_FIRM,
  SYMBOL,
  startFamilyA,
  type FamilyAHarness,
  type Json,
} from '../familya/helpers/harness.ts';

const RATE = 5;
let h: FamilyAHarness;
let gatewayToken = '';
let grpc: GrpcExchangeClient;

const gatewayInsert = async (price: string): Promise<number> => {
  const response = await fetch(`${h.sim.ready.gateway}/api/v1beta1/insert_order`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: gatewayToken },
    body: JSON.stringify({ symbol: SYMBOL, side: 'SIDE_BUY', order_qty: '1', price, type: 'ORDER_TYPE_LIMIT', account: ALICE_MAIN }),
  });
  await response.text();
  return response.status;
};

const v1Insert = async (token: string, participant: string, account: string) =>
  h.call('POST', '/v1/trading/orders', {
    token,
    participant,
    body: { symbol: SYMBOL, side: 'SIDE_BUY', orderQty: '1', price: '11', type: 'ORDER_TYPE_LIMIT', account },
  });

const grpcInsert = () =>
  grpc
    .insertOrder({
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      orderQty: new Decimal(1),
      price: new Decimal('0.12'),
      type: 'ORDER_TYPE_LIMIT',
      account: ALICE_MAIN,
    })
    .then(
      () => status.OK,
      (e: unknown) => (e as { grpcCode?: number }).grpcCode,
    );

beforeAll(async () => {
  h = await startFamilyA({ gateway: `rateLimitPerSecond: ${RATE}` });
  const login = await fetch(`${h.sim.ready.gateway}/auth/v1beta1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: ALICE_PASSWORD }),
  });
  gatewayToken = String(((await login.json()) as Json)['accessToken']);
  const catalog = instrumentCatalog(
    h.sim.core.instruments().map((i) => ({ symbol: i.symbol, priceScale: i.scales.priceScale, fractionalQtyScale: i.scales.qtyScale })),
  );
  let token: Promise<string> | undefined;
  grpc = new GrpcExchangeClient({ address: h.sim.ready.grpc, instruments: catalog, getToken: () => (token ??= h.token(CLIENT)) });
});
afterAll(async () => {
  grpc.close();
  await h.close();
});

describe('the firm budget', () => {
  it('is shared by the gateway, /v1 and gRPC order entry, refuses at every door once spent, and refills', async () => {
    const token = await h.token(CLIENT);
    // the clock stands still: RATE calls in all, whatever the door
    expect(await gatewayInsert('10')).toBe(200);
    expect(await gatewayInsert('10')).toBe(200);
    expect((await v1Insert(token, ALICE, ALICE_MAIN)).status).toBe(200);
    expect((await v1Insert(token, ALICE, ALICE_MAIN)).status).toBe(200);
    expect(await grpcInsert()).toBe(status.OK);

    const refused = await v1Insert(token, ALICE, ALICE_MAIN);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(refused.body).toMatchObject({ error: { code: 'RESOURCE_EXHAUSTED', status: 429 } });
    expect(await grpcInsert()).toBe(status.RESOURCE_EXHAUSTED);
    expect(await gatewayInsert('10')).toBe(429);

    // another firm has its own budget
    expect((await v1Insert(await h.token(CLIENT_OTHER_FIRM), CAROL, CAROL_MAIN)).status).toBe(200);

    h.clock.advance(1000);
    expect((await v1Insert(token, ALICE, ALICE_MAIN)).status).toBe(200);
    expect(await grpcInsert()).toBe(status.OK);
  });
});
