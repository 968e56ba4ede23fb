// The family A client against the real simulator (startSim): every /v1 endpoint end to end, Decimal
// prices through instrument scales loaded from reference data, 401 on an expired token with automatic
// recovery (injected clocks), scope and rejection errors, and OAuth errors of the sim's token server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/index.ts';
import { FamilyAErrorCode, MapInstrumentCatalog } from '../../../src/exchange/familya/index.ts';
import type { FamilyAClient, FamilyAStack } from '../../../src/exchange/familya/index.ts';
import {
  ALICE,
  ALICE_HEDGE,
  ALICE_MAIN,
  BOB,
  BOB_MAIN,
  CLIENT_NO_L2,
  FRAC,
  ManualClock,
  RAIN,
  startSimHarness,
  writePem,
} from './helpers/sim.ts';
import type { SimHarness } from './helpers/sim.ts';
import { makeKeys } from './helpers/keys.ts';

const d = (text: string) => new Decimal(text);
let h: SimHarness;
let alice: FamilyAStack;
let bob: FamilyAClient;

beforeAll(async () => {
  h = await startSimHarness();
  alice = h.clientFor(ALICE);
  bob = h.clientFor(BOB).client;
});
afterAll(() => h.close());

describe('family A client against the simulator', () => {
  it('health, whoAmI and reference data', async () => {
    expect(await alice.client.health()).toEqual({ status: 'SERVING' });
    const me = await alice.client.whoAmI();
    expect(me).toMatchObject({ participantId: ALICE, firmId: 'demo', userId: 'alice' });
    expect(me.scopes).toContain('write:orders');
    expect(await alice.client.refdataSymbols()).toEqual([RAIN, FRAC]);
    const [frac] = (await alice.client.refdataInstruments({ symbols: [FRAC] })).instruments;
    expect(frac).toMatchObject({ symbol: FRAC, priceScale: 10_000, fractionalQtyScale: 100 });
    expect(frac?.highPriceLimit.toString()).toBe('0.9999');
    expect(alice.client.catalog.scalesOf(FRAC)?.qtyScale).toBe(100);
    const metadata = await alice.client.refdataMetadata([RAIN]);
    expect(metadata['metadata']).toEqual([expect.objectContaining({ symbol: RAIN })]);
    const all = await alice.client.loadInstruments();
    expect(all.map((i) => i.symbol)).toEqual([RAIN, FRAC]);
  });

  it('order entry: insert, preview, open orders, replace, cancel (single and lists)', async () => {
    const c = alice.client;
    const preview = await c.previewOrder({
      symbol: FRAC,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('1.25'),
      price: d('0.1234'),
      account: ALICE_MAIN,
    });
    expect(preview.price.toString()).toBe('0.1234');
    expect(preview.orderQty.toString()).toBe('1.25');

    const a = await c.insertOrder({
      symbol: FRAC,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('1.25'),
      price: d('0.1234'),
      account: ALICE_MAIN,
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    });
    const b = await c.insertOrder({
      symbol: RAIN,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('2'),
      price: d('0.10'),
      account: ALICE_HEDGE,
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    });
    const x = await c.insertOrder({
      symbol: RAIN,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('1'),
      price: d('0.11'),
      account: ALICE_HEDGE,
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    });
    let open = await c.openOrders();
    expect(open.map((o) => o.id).sort()).toEqual([a.orderId, b.orderId, x.orderId].sort());
    const fracOrder = open.find((o) => o.id === a.orderId);
    expect(fracOrder?.price.toString()).toBe('0.1234');
    expect(fracOrder?.clordId).toBe(a.clordId);
    expect((await c.openOrders({ symbols: [FRAC] })).map((o) => o.id)).toEqual([a.orderId]);

    const replaced = await c.replaceOrder({ orderId: a.orderId, symbol: FRAC, price: d('0.1235'), orderQty: d('1.25') });
    const [listReplaced] = await c.replaceOrderList([{ orderId: b.orderId, symbol: RAIN, price: d('0.12'), orderQty: d('2') }]);
    open = await c.openOrders();
    expect(open.find((o) => o.id === replaced.orderId)?.price.toString()).toBe('0.1235');
    expect(open.find((o) => o.id === listReplaced)?.price.toString()).toBe('0.12');

    await c.cancelOrder({ orderId: replaced.orderId, symbol: FRAC });
    await c.cancelOrderList([
      { orderId: listReplaced ?? '', symbol: RAIN },
      { orderId: x.orderId, symbol: RAIN },
    ]);
    expect(await c.openOrders()).toEqual([]);
  });

  it('market data, trades, stats, positions and balances after a match', async () => {
    const sell = await bob.insertOrder({
      symbol: RAIN,
      side: 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('3'),
      price: d('0.45'),
      account: BOB_MAIN,
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    });
    await bob.insertOrder({
      symbol: RAIN,
      side: 'SIDE_SELL',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('4'),
      price: d('0.47'),
      account: BOB_MAIN,
      timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    });
    const book = await alice.client.orderbook(RAIN, 2);
    expect(book.offers.map((l) => [l.px.toString(), l.qty.toString()])).toEqual([
      ['0.45', '3'],
      ['0.47', '4'],
    ]);
    const bbo = await alice.client.bbo(RAIN);
    expect(bbo.offer?.px.toString()).toBe('0.45');
    expect(bbo.bid).toBeUndefined();

    h.clock.advance(1000);
    const buy = await alice.client.insertOrder({
      symbol: RAIN,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('2'),
      price: d('0.45'),
      account: ALICE_MAIN,
    });
    h.clock.advance(1000);
    await alice.client.insertOrder({
      symbol: RAIN,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: d('1'),
      price: d('0.45'),
      account: ALICE_MAIN,
    });

    const trades = [];
    for await (const trade of alice.client.allTrades({ symbol: RAIN, pageSize: 1 })) trades.push(trade);
    expect(trades).toHaveLength(2);
    expect(trades.every((t) => t.aggressor.lastPx.toString() === '0.45')).toBe(true);
    expect(trades[0]?.aggressor.order.id).toBe(buy.orderId);
    expect(trades[0]?.passive.order.id).toBe(sell.orderId);

    const stats = await alice.client.tradeStats({ symbol: RAIN, startTime: h.clock.now() - 60_000, endTime: h.clock.now() + 1, bars: 2 });
    expect(stats.stats?.volume.toString()).toBe('3');
    expect(stats.stats?.notional.toString()).toBe('1.35');
    expect(stats.bars).toHaveLength(2);
    expect(stats.stats?.high.toString()).toBe('0.45');

    const orders = [];
    for await (const order of alice.client.allOrders({ symbol: RAIN, accounts: [ALICE_MAIN], pageSize: 1 })) orders.push(order);
    expect(orders.map((o) => o.state)).toEqual(['ORDER_STATE_FILLED', 'ORDER_STATE_FILLED']);

    const positions = await alice.client.positions({ accounts: [ALICE_MAIN], symbol: RAIN });
    expect(positions.positions.map((p) => [p.account, p.netPosition.toString()])).toEqual([[ALICE_MAIN, '3']]);
    const balance = await alice.client.balance(ALICE_MAIN, 'USD');
    expect(balance.balance.lt(d('1000'))).toBe(true);
    const balances = await alice.client.balances([ALICE_MAIN, ALICE_HEDGE]);
    expect(balances.map((x) => x.account)).toEqual([ALICE_MAIN, ALICE_HEDGE]);
  });

  it('users, funding accounts and deposits', async () => {
    const created = await alice.client.createUser({ username: 'dora', externalId: 'ext-dora', email: 'dora@example.com' });
    expect(created).toMatchObject({ username: 'dora', externalId: 'ext-dora' });
    const page = await alice.client.listUsers({ pageSize: 1 });
    expect(page.users).toHaveLength(1);
    const names = [];
    for await (const user of alice.client.allUsers({ pageSize: 1 })) names.push(user.username);
    expect(names).toEqual(expect.arrayContaining(['alice', 'bob', 'dora']));

    const [funding] = await alice.client.fundingAccounts(ALICE_HEDGE);
    expect(funding?.account).toBe(ALICE_HEDGE);
    const before = (await alice.client.balance(ALICE_HEDGE)).balance;
    const aero = await alice.client.aeropayDeposit({ account: ALICE_HEDGE, amount: d('250.5'), fundingAccountId: funding?.id ?? '' });
    expect(aero.deposit).toMatchObject({ provider: 'aeropay', account: ALICE_HEDGE, status: 'COMPLETED' });
    expect(aero.deposit.amount.toString()).toBe('250.5');
    const card = await alice.client.checkoutDeposit({ account: ALICE_HEDGE, amount: d('10') });
    expect(card.balance?.balance.toString()).toBe(before.plus('260.5').toString());
  });

  it('KYC verify and status', async () => {
    const started = await alice.client.kycVerify({ externalId: 'kyc-1', email: 'k@example.com', firstName: 'K', lastName: 'Y' });
    expect(started).toMatchObject({ externalId: 'kyc-1', status: 'NOT_STARTED' });
    expect(await alice.client.kycStatus('kyc-1')).toMatchObject({ externalId: 'kyc-1' });
    await expect(alice.client.kycStatus('never-started')).rejects.toMatchObject({ code: FamilyAErrorCode.Rejected, httpStatus: 404 });
  });

  it('rejections, scopes and refused webhooks are typed errors', async () => {
    await expect(alice.client.cancelOrder({ orderId: 'no-such-order', symbol: RAIN })).rejects.toMatchObject({
      code: FamilyAErrorCode.Rejected,
      kind: 'rejection',
    });
    const noL2 = h.clientFor(ALICE, { clientId: CLIENT_NO_L2 }).client;
    const denied = await noL2.orderbook(RAIN).catch((e: unknown) => e);
    expect(denied).toMatchObject({ code: FamilyAErrorCode.PermissionDenied, exchange: { reason: 'SCOPE_MISSING' } });
    expect((denied as Error).message).toContain('read:l2marketdata');
    await expect(alice.client.registerKycWebhook('https://127.0.0.1:1/kyc')).rejects.toMatchObject({
      code: FamilyAErrorCode.Rejected,
      message: expect.stringContaining('did not pass validation'),
    });
    await expect(
      alice.client.insertOrder({
        symbol: RAIN,
        side: 'SIDE_BUY',
        type: 'ORDER_TYPE_LIMIT',
        orderQty: d('1'),
        price: d('1.50'),
        account: ALICE_MAIN,
      }),
    ).rejects.toMatchObject({
      code: FamilyAErrorCode.Rejected,
    });
  });
});

describe('tokens against the simulator', () => {
  it('refreshes before expiry when both clocks move together', async () => {
    const stack = h.clientFor(ALICE);
    await stack.client.whoAmI();
    h.clock.advance(149_000);
    await stack.client.whoAmI();
    expect(stack.tokens.exchanges).toBe(1);
    h.clock.advance(2_000);
    await stack.client.whoAmI();
    expect(stack.tokens.exchanges).toBe(2);
  });

  it('recovers from a 401 on an expired token (the client clock lags the exchange)', async () => {
    const lagging = new ManualClock(h.clock.now());
    const stack = h.clientFor(ALICE, { now: lagging.now });
    await stack.client.whoAmI();
    h.clock.advance(181_000);
    const me = await stack.client.whoAmI();
    expect(me.participantId).toBe(ALICE);
    expect(stack.tokens.exchanges).toBe(2);
  });

  it('maps the token server refusals to FAMILY_A_TOKEN_REJECTED', async () => {
    const other = makeKeys();
    const wrongKey = h.clientFor(ALICE, { privateKeyFile: writePem(h.keys.dir, 'other.pem', other.privatePem) }).client;
    await expect(wrongKey.whoAmI()).rejects.toMatchObject({ code: FamilyAErrorCode.TokenRejected, oauthError: 'invalid_client' });
    const unknown = h.clientFor(ALICE, { clientId: 'nobody' }).client;
    await expect(unknown.whoAmI()).rejects.toMatchObject({ code: FamilyAErrorCode.TokenRejected, oauthError: 'invalid_client' });
  });

  it('loads scales on demand for a client with an empty catalog', async () => {
    const stack = h.clientFor(ALICE, { catalog: new MapInstrumentCatalog() });
    const book = await stack.client.orderbook(FRAC);
    expect(book.symbol).toBe(FRAC);
    expect(stack.client.catalog.scalesOf(FRAC)?.priceScale).toBe(10_000);
  });
});
