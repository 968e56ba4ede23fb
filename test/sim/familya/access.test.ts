// Access control of /v1: 401 without, with a bad, or with an expired token; 403 for a missing scope and
// for an address off the client's allowlist; the x-participant-id rules of trading calls; and the family A
// error body shape on every one of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ALICE,
  ALICE_MAIN,
  BOB,
  CAROL,
  CAROL_MAIN,
  CLIENT,
  CLIENT_ALLOWLISTED,
  CLIENT_NO_L2,
  CLIENT_OTHER_FIRM,
  SYMBOL,
  at,
  startFamilyA,
  type FamilyAHarness,
} from './helpers/harness.ts';

let h: FamilyAHarness;
let token: string;

beforeAll(async () => {
  h = await startFamilyA();
  token = await h.token(CLIENT);
});
afterAll(async () => {
  await h.close();
});

function expectErrorBody(body: unknown, code: string, status: number, reason?: string) {
  expect(at(body, 'error.code')).toBe(code);
  expect(at(body, 'error.status')).toBe(status);
  expect(typeof at(body, 'error.message')).toBe('string');
  expect(Array.isArray(at(body, 'error.details'))).toBe(true);
  if (reason !== undefined) {
    expect(at(body, 'error.details.0.reason')).toBe(reason);
    expect(at(body, 'error.details.0.@type')).toBe('type.googleapis.com/google.rpc.ErrorInfo');
  }
}

describe('/v1 authentication', () => {
  it('health needs no token', async () => {
    const response = await h.call('GET', '/v1/health');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'SERVING' });
  });

  it('no Authorization header is 401 TOKEN_MISSING with a Bearer challenge', async () => {
    const response = await h.call('GET', `/v1/orderbook/${SYMBOL}`);
    expect(response.status).toBe(401);
    expectErrorBody(response.body, 'UNAUTHENTICATED', 401, 'TOKEN_MISSING');
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  it('a garbage token is 401 TOKEN_INVALID', async () => {
    const response = await h.call('GET', `/v1/orderbook/${SYMBOL}`, { token: 'abc.def.ghi' });
    expect(response.status).toBe(401);
    expectErrorBody(response.body, 'UNAUTHENTICATED', 401, 'TOKEN_INVALID');
  });

  it('a token without the Bearer prefix is 401', async () => {
    const response = await h.call('GET', `/v1/orderbook/${SYMBOL}`, { headers: { authorization: token } });
    expect(response.status).toBe(401);
  });

  it('an expired token is 401 TOKEN_EXPIRED (clock moved past expires_in)', async () => {
    const short = await h.token(CLIENT);
    expect((await h.call('GET', `/v1/orderbook/${SYMBOL}`, { token: short })).status).toBe(200);
    h.clock.advance(181_000);
    const response = await h.call('GET', `/v1/orderbook/${SYMBOL}`, { token: short });
    expect(response.status).toBe(401);
    expectErrorBody(response.body, 'UNAUTHENTICATED', 401, 'TOKEN_EXPIRED');
    token = await h.token(CLIENT);
  });
});

describe('/v1 authorization', () => {
  it('a client without read:l2marketdata gets 403 SCOPE_MISSING on the order book, 200 on the bbo', async () => {
    const limited = await h.token(CLIENT_NO_L2);
    const book = await h.call('GET', `/v1/orderbook/${SYMBOL}`, { token: limited });
    expect(book.status).toBe(403);
    expectErrorBody(book.body, 'PERMISSION_DENIED', 403, 'SCOPE_MISSING');
    expect(at(book.body, 'error.details.0.metadata.scope')).toBe('read:l2marketdata');
    expect((await h.call('GET', `/v1/orderbook/${SYMBOL}/bbo`, { token: limited })).status).toBe(200);
  });

  it('a client whose allowlist does not hold 127.0.0.1 gets 403 ADDRESS_NOT_ALLOWED', async () => {
    const allowlisted = await h.token(CLIENT_ALLOWLISTED);
    const response = await h.call('GET', `/v1/orderbook/${SYMBOL}`, { token: allowlisted });
    expect(response.status).toBe(403);
    expectErrorBody(response.body, 'PERMISSION_DENIED', 403, 'ADDRESS_NOT_ALLOWED');
  });

  it('health is open even to that client', async () => {
    expect((await h.call('GET', '/v1/health')).status).toBe(200);
  });
});

describe('x-participant-id on trading calls', () => {
  const order = {
    symbol: SYMBOL,
    side: 'SIDE_BUY',
    type: 'ORDER_TYPE_LIMIT',
    orderQty: '1',
    price: '10',
    account: ALICE_MAIN,
    timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
  };

  it('missing is 400 PARTICIPANT_REQUIRED', async () => {
    const response = await h.call('POST', '/v1/trading/orders', { token, body: order });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, 'INVALID_ARGUMENT', 400, 'PARTICIPANT_REQUIRED');
  });

  it('malformed is 400 PARTICIPANT_INVALID', async () => {
    const response = await h.call('POST', '/v1/trading/orders', { token, body: order, participant: 'alice' });
    expect(response.status).toBe(400);
    expectErrorBody(response.body, 'INVALID_ARGUMENT', 400, 'PARTICIPANT_INVALID');
  });

  it("another firm's participant is 403 PARTICIPANT_NOT_PERMITTED", async () => {
    const response = await h.call('POST', '/v1/trading/orders', { token, body: { ...order, account: CAROL_MAIN }, participant: CAROL });
    expect(response.status).toBe(403);
    expectErrorBody(response.body, 'PERMISSION_DENIED', 403, 'PARTICIPANT_NOT_PERMITTED');
  });

  it("a participant of the firm may not trade another participant's account", async () => {
    const response = await h.call('POST', '/v1/trading/orders', { token, body: order, participant: BOB });
    expect(response.status).toBe(403);
    expectErrorBody(response.body, 'PERMISSION_DENIED', 403);
  });

  it('any participant of the firm is accepted (firm-level client)', async () => {
    const response = await h.call('POST', '/v1/trading/orders', { token, body: order, participant: ALICE });
    expect(response.status).toBe(200);
    expect(typeof response.body['orderId']).toBe('string');
    const other = await h.token(CLIENT_OTHER_FIRM);
    const carol = await h.call('POST', '/v1/trading/orders', { token: other, body: { ...order, account: CAROL_MAIN }, participant: CAROL });
    expect(carol.status).toBe(200);
  });

  it("reads are firm-wide without the header and never show another firm's accounts", async () => {
    const response = await h.call('POST', '/v1/positions/balances', { token, body: {} });
    expect(response.status).toBe(200);
    const accounts = (response.body['balances'] as { account: string }[]).map((b) => b.account).sort();
    expect(accounts).toEqual(['firms/demo/accounts/alice-hedge', 'firms/demo/accounts/alice-main', 'firms/demo/accounts/bob-main']);
    const foreign = await h.call('POST', '/v1/positions/balance', { token, body: { name: CAROL_MAIN } });
    expect(foreign.status).toBe(403);
    expectErrorBody(foreign.body, 'PERMISSION_DENIED', 403, 'ACCOUNT_NOT_PERMITTED');
  });
});

describe('/v1 error bodies', () => {
  it('an unknown path is 404 in the family A shape', async () => {
    const response = await h.call('GET', '/v1/nope', { token });
    expect(response.status).toBe(404);
    expectErrorBody(response.body, 'NOT_FOUND', 404);
  });

  it('malformed JSON is 400', async () => {
    const response = await fetch(`${h.api}/v1/report/trades/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{nope',
    });
    expect(response.status).toBe(400);
    expectErrorBody(await response.json(), 'INVALID_ARGUMENT', 400);
  });

  it('a body that fails the camelCase codec is 400 naming the field', async () => {
    const response = await h.call('POST', '/v1/trading/orders', {
      token,
      participant: ALICE,
      body: { symbol: SYMBOL, side: 'SIDEWAYS', orderQty: '1', price: '10', account: ALICE_MAIN },
    });
    expect(response.status).toBe(400);
    expect(String(at(response.body, 'error.message'))).toMatch(/side/);
  });
});
