/**
 * Free-text fields are bounded (issue 21, `clord_id` has no length limit): an order request, a cancel, a
 * replace or a cross whose clord_id, cross_id or other text field is longer than 128 characters is 400
 * INVALID_ARGUMENT naming the field and the limit, at every door (gateway, /v1, gRPC), and leaves no trace;
 * 128 characters pass. KYC verification texts and the webhook URL are bounded too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { status } from '@grpc/grpc-js';
import { Decimal } from '../../../src/domain/decimal.ts';
import { GrpcExchangeClient } from '../../../src/exchange/grpc/index.ts';
import { instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import { MAX_TEXT_LENGTH } from '../../../src/domain/limits.ts';
import {
  ALICE,
  ALICE_MAIN,
  ALICE_PASSWORD,
  CLIENT,
  SYMBOL,
  startFamilyA,
  type FamilyAHarness,
  type Json,
} from '../familya/helpers/harness.ts';

let h: FamilyAHarness;
let gatewayToken = '';
let apiToken = '';
const long = 'x'.repeat(MAX_TEXT_LENGTH + 1);
const fits = 'y'.repeat(MAX_TEXT_LENGTH);

async function gateway(path: string, body: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${h.sim.ready.gateway}/api/v1beta1/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: gatewayToken },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Json };
}

const order = (extra: Json = {}): Json => ({
  symbol: SYMBOL,
  side: 'SIDE_BUY',
  order_qty: '1',
  price: '10',
  type: 'ORDER_TYPE_LIMIT',
  time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  account: ALICE_MAIN,
  ...extra,
});

beforeAll(async () => {
  h = await startFamilyA();
  const login = await fetch(`${h.sim.ready.gateway}/auth/v1beta1/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'alice', password: ALICE_PASSWORD }),
  });
  gatewayToken = String(((await login.json()) as Json)['accessToken']);
  apiToken = await h.token(CLIENT);
});
afterAll(async () => h.close());

describe('text fields longer than the limit', () => {
  it('gateway: insert, list insert, cancel, replace and cross are 400 naming the field and the limit; nothing is created', async () => {
    const before = [...h.sim.core.allOrders()].length;
    for (const [path, body, field] of [
      ['insert_order', order({ clord_id: long }), 'clord_id'],
      ['insert_order', order({ client_account_id: long }), 'client_account_id'],
      ['insert_order', order({ self_match_prevention_id: long }), 'self_match_prevention_id'],
      ['insert_order_list', { requests: [order(), order({ clord_id: long })] }, 'clord_id'],
      ['cancel_order', { order_id: 'O0000000000000001', symbol: SYMBOL, clord_id: long }, 'clord_id'],
      ['cancel_replace_order', { order_id: 'O0000000000000001', symbol: SYMBOL, clord_id: long, price: '11' }, 'clord_id'],
      [
        'insert_order_cross',
        { cross_id: long, cross_type: 'CROSS_TYPE_ALL_OR_NONE', requests: [order(), order({ side: 'SIDE_SELL' })] },
        'cross_id',
      ],
    ] as const) {
      const answer = await gateway(path, body);
      expect(answer.status, `${path} ${field}`).toBe(400);
      expect(answer.body).toMatchObject({ code: 3, message: 'INVALID_ARGUMENT' });
      expect(String(answer.body['details'])).toContain(field);
      expect(String(answer.body['details'])).toContain(`${MAX_TEXT_LENGTH} characters`);
    }
    expect([...h.sim.core.allOrders()]).toHaveLength(before);
    const ok = await gateway('insert_order', order({ clord_id: fits }));
    expect(ok.status).toBe(200);
  });

  it('/v1: insert and cancel are 400 naming the field', async () => {
    const insert = await h.call('POST', '/v1/trading/orders', {
      token: apiToken,
      participant: ALICE,
      body: { symbol: SYMBOL, side: 'SIDE_BUY', orderQty: '1', price: '10', type: 'ORDER_TYPE_LIMIT', account: ALICE_MAIN, clordId: long },
    });
    expect(insert.status).toBe(400);
    expect(insert.text).toContain('clord_id');
    expect(insert.text).toContain(`${MAX_TEXT_LENGTH} characters`);
    const cancel = await h.call('POST', '/v1/trading/orders/cancel', {
      token: apiToken,
      participant: ALICE,
      body: { orderId: 'O0000000000000001', symbol: SYMBOL, clordId: long },
    });
    expect(cancel.status).toBe(400);
  });

  it('gRPC: InsertOrder is INVALID_ARGUMENT', async () => {
    const catalog = instrumentCatalog(
      h.sim.core.instruments().map((i) => ({ symbol: i.symbol, priceScale: i.scales.priceScale, fractionalQtyScale: i.scales.qtyScale })),
    );
    let token: Promise<string> | undefined;
    const client = new GrpcExchangeClient({ address: h.sim.ready.grpc, instruments: catalog, getToken: () => (token ??= h.token(CLIENT)) });
    try {
      const error = await client
        .insertOrder({
          symbol: SYMBOL,
          side: 'SIDE_BUY',
          orderQty: new Decimal(1),
          price: new Decimal('0.1'),
          type: 'ORDER_TYPE_LIMIT',
          account: ALICE_MAIN,
          clordId: long,
        })
        .then(
          () => undefined,
          (e: unknown) => e as { grpcCode?: number; message: string },
        );
      expect(error?.grpcCode).toBe(status.INVALID_ARGUMENT);
      expect(error?.message).toContain('clord_id');
    } finally {
      client.close();
    }
  });

  it('KYC: verification texts and the webhook URL are bounded', async () => {
    const verify = await h.call('POST', '/v1/kyc/verify', {
      token: apiToken,
      body: { externalId: 'kyc-long', email: `${'e'.repeat(300)}@example.com`, firstName: 'A', lastName: 'B' },
    });
    expect(verify.status).toBe(400);
    expect(verify.text).toContain('email');
    const webhook = await h.call('POST', '/v1/kyc/webhook', {
      token: apiToken,
      body: { webhookUrl: `https://127.0.0.1/${'p'.repeat(3000)}` },
    });
    expect(webhook.status).toBe(400);
    expect(webhook.text).toContain('webhookUrl');
  });
});
