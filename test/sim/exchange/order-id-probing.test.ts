/**
 * Order ids cannot be probed (issue 21): an order id that exists at another firm is answered exactly as an id
 * that was never issued, at every door that takes an order id (gateway cancel / replace and their lists,
 * `/v1/trading/orders/cancel|replace` and their lists, gRPC CancelOrder / CancelOrderList /
 * CancelReplaceOrder): the same status and the same body with the id in it, and the other firm's order is
 * left untouched.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/decimal.ts';
import { GrpcExchangeClient } from '../../../src/exchange/grpc/index.ts';
import { instrumentCatalog } from '../../../src/exchange/gateway/index.ts';
import {
  ALICE,
  CAROL_MAIN,
  CLIENT,
  SYMBOL,
  gatewayCaller,
  startFamilyA,
  type FamilyAHarness,
  type Json,
} from '../familya/helpers/harness.ts';

let h: FamilyAHarness;
let carolOrder = '';
let unknownOrder = '';
let token = '';
const gateway = gatewayCaller(() => h);

function grpcClient(clientId: string): GrpcExchangeClient {
  const catalog = instrumentCatalog(
    h.sim.core.instruments().map((i) => ({ symbol: i.symbol, priceScale: i.scales.priceScale, fractionalQtyScale: i.scales.qtyScale })),
  );
  let access: Promise<string> | undefined;
  return new GrpcExchangeClient({ address: h.sim.ready.grpc, instruments: catalog, getToken: () => (access ??= h.token(clientId)) });
}

/** The answer with the probed id replaced, so the answers for two ids can be compared. */
const masked = (answer: unknown, id: string): string => JSON.stringify(answer).replaceAll(id, '<id>');

/** Asks the same thing about carol's order and about an id never issued: the answers must be the same. */
async function sameAnswer(ask: (orderId: string) => Promise<unknown>): Promise<unknown> {
  const foreign = masked(await ask(carolOrder), carolOrder);
  const unknown = masked(await ask(unknownOrder), unknownOrder);
  expect(foreign).toBe(unknown);
  return JSON.parse(unknown);
}

async function grpcAnswer(call: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: (await call()) ?? null };
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown };
    return { code: e.code, message: e.message };
  }
}

beforeAll(async () => {
  h = await startFamilyA();
  token = await h.token(CLIENT);
  const rest = await gateway('carol', 'insert_order', {
    symbol: SYMBOL,
    side: 'SIDE_SELL',
    order_qty: '3',
    price: '60',
    type: 'ORDER_TYPE_LIMIT',
    time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    account: CAROL_MAIN,
  });
  carolOrder = String(rest.body['order_id']);
  unknownOrder = carolOrder.replace(/\d+$/, (digits) => '9'.repeat(digits.length));
  expect(unknownOrder).not.toBe(carolOrder);
});
afterAll(async () => {
  expect(h.sim.core.engine.getOrder(carolOrder)).toMatchObject({ leavesQty: 3 });
  await h?.close();
});

describe('an order id of another firm is answered as an unknown one, and the order is left alone', () => {
  it('gateway cancel_order, cancel_replace_order and their lists', async () => {
    const cancel = await sameAnswer((id) => gateway('alice', 'cancel_order', { order_id: id, symbol: SYMBOL }));
    expect(cancel).toMatchObject({ status: 404 });
    const replace = (id: string) => ({ order_id: id, symbol: SYMBOL, order_qty: '1', price: '61' });
    expect(await sameAnswer((id) => gateway('alice', 'cancel_replace_order', replace(id)))).toMatchObject({ status: 404 });
    expect(await sameAnswer((id) => gateway('alice', 'cancel_order_list', { requests: [{ order_id: id, symbol: SYMBOL }] }))).toEqual({
      status: 200,
      body: {},
    });
    expect(await sameAnswer((id) => gateway('alice', 'cancel_replace_order_list', { requests: [replace(id)] }))).toMatchObject({
      status: 404,
    });
  });

  it('/v1/trading/orders/cancel, /replace (symbol left out) and their lists', async () => {
    const call = (path: string, body: Json) => async () => {
      const response = await h.call('POST', path, { token, participant: ALICE, body });
      return { status: response.status, body: response.body };
    };
    const cancel = (id: string) => ({ orderId: id, symbol: SYMBOL });
    const replace = (id: string): Json => ({ orderId: id, orderQty: '1', price: '61' });
    expect(await sameAnswer((id) => call('/v1/trading/orders/cancel', cancel(id))())).toMatchObject({ status: 404 });
    expect(await sameAnswer((id) => call('/v1/trading/orders/replace', { ...replace(id), symbol: SYMBOL })())).toMatchObject({
      status: 404,
    });
    // without a symbol the prices cannot be scaled: 400 for both (the symbol is never taken from another firm's order)
    expect(await sameAnswer((id) => call('/v1/trading/orders/replace', replace(id))())).toMatchObject({ status: 400 });
    expect(await sameAnswer((id) => call('/v1/trading/orders/cancel/list', { requests: [cancel(id)] })())).toMatchObject({ status: 200 });
    expect(
      await sameAnswer((id) => call('/v1/trading/orders/replace/list', { requests: [{ ...replace(id), symbol: SYMBOL }] })()),
    ).toMatchObject({
      status: 404,
    });
  });

  it('gRPC CancelOrder, CancelOrderList and CancelReplaceOrder', async () => {
    const client = grpcClient(CLIENT);
    try {
      const cancel = await sameAnswer((id) => grpcAnswer(() => client.cancelOrder({ orderId: id, symbol: SYMBOL })));
      expect(cancel).toMatchObject({ code: 'GRPC_NOT_FOUND' });
      expect(await sameAnswer((id) => grpcAnswer(() => client.cancelOrderList([{ orderId: id, symbol: SYMBOL }])))).toHaveProperty('ok');
      const replace = await sameAnswer((id) =>
        grpcAnswer(() => client.cancelReplaceOrder({ orderId: id, symbol: SYMBOL, orderQty: new Decimal(1), price: new Decimal('0.61') })),
      );
      expect(replace).toMatchObject({ code: 'GRPC_NOT_FOUND' });
    } finally {
      client.close();
    }
  });
});
