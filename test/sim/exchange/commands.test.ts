/**
 * The translation between the domain's requests (Decimal, decoded from the gateway wire) and matching
 * engine commands (raw scaled integers), shared by every door of the simulator: defaults, ownership,
 * argument errors as SimHttpError statuses, and how engine outcomes become insert answers.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { gateway } from '../../../src/domain/wire/families.ts';
import type { OrderRequest as DomainOrderRequest } from '../../../src/domain/types/requests.ts';
import { ExchangeCore } from '../../../src/sim/exchange/exchange-core.ts';
import {
  checkAccount,
  checkCancel,
  insertOrder,
  insertOutcome,
  toEngineCross,
  toEngineOrder,
  toEngineReplace,
  type Caller,
} from '../../../src/sim/exchange/commands.ts';
import { scaleLookup } from '../../../src/sim/gateway/wire.ts';
import { SimHttpError } from '../../../src/sim/http/errors.ts';
import { ManualClock, SYMBOL, simConfig } from '../gateway/helpers/harness.ts';

const MAIN = 'firms/demo/accounts/alice-main';
const OTHER = 'firms/demo/accounts/bob-main';
const CALLER: Caller = { participant: 'firms/demo/users/alice', accounts: [MAIN] };

let core: ExchangeCore;
let clock: ManualClock;

beforeEach(() => {
  clock = new ManualClock();
  const config = simConfig();
  core = new ExchangeCore({ clock, instruments: config.instruments, startingBalance: config.startingBalance, currency: config.currency });
});

function request(json: Record<string, unknown>): DomainOrderRequest {
  return gateway.orderRequest.decode(
    { symbol: SYMBOL, side: 'SIDE_BUY', order_qty: '3', price: '42', account: MAIN, ...json },
    scaleLookup(core),
  );
}

function statusOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof SimHttpError) return `${error.status}: ${error.details}`;
    throw error;
  }
  return 'no error';
}

describe('toEngineOrder', () => {
  it('turns decimals into raw integers and fills the defaults (LIMIT, DAY, a clord_id, the caller)', () => {
    const engine = toEngineOrder(core, request({}), CALLER, clock.t);
    expect(engine).toMatchObject({
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: 3,
      price: 42,
      timeInForce: 'TIME_IN_FORCE_DAY',
      account: MAIN,
      participant: CALLER.participant,
    });
    expect(engine.clordId).toMatch(/^[0-9a-f-]{36}$/);
    expect(engine.stopPrice).toBeUndefined();
    expect(engine.minQty).toBeUndefined();
    expect(engine.tag).toMatchObject({ submittingParticipant: CALLER.participant, createTime: clock.t });
  });

  it("keeps the client's clord_id, time in force and min_qty", () => {
    const engine = toEngineOrder(
      core,
      request({ clord_id: 'mine', time_in_force: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL', min_qty: '2' }),
      CALLER,
      clock.t,
    );
    expect(engine).toMatchObject({ clordId: 'mine', timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL', minQty: 2 });
  });

  it('drops the price of a MARKET_TO_LIMIT order', () => {
    const engine = toEngineOrder(core, request({ type: 'ORDER_TYPE_MARKET_TO_LIMIT' }), CALLER, clock.t);
    expect(engine.price).toBeUndefined();
  });

  it.each<[string, Record<string, unknown>, string]>([
    ['a foreign account', { account: OTHER }, 'PERMISSION_DENIED'],
    ['an empty account', { account: '' }, 'INVALID_ARGUMENT: account is required'],
    ['no side', { side: 'SIDE_UNDEFINED' }, 'INVALID_ARGUMENT: side is required'],
    ['a zero quantity', { order_qty: '0' }, 'INVALID_ARGUMENT: order_qty must be a positive quantity'],
    ['a negative quantity', { order_qty: '-2' }, 'INVALID_ARGUMENT: order_qty must be a positive quantity'],
    ['no price on a limit order', { price: '0' }, 'INVALID_ARGUMENT: price is required'],
  ])('refuses %s', (_name, json, expected) => {
    expect(statusOf(() => toEngineOrder(core, request(json), CALLER, clock.t))).toContain(expected);
  });

  it('refuses an unknown or empty symbol as INVALID_ARGUMENT', () => {
    expect(statusOf(() => toEngineOrder(core, { ...request({}), symbol: 'NOPE' }, CALLER, clock.t))).toBe(
      'INVALID_ARGUMENT: unknown symbol NOPE',
    );
    expect(statusOf(() => toEngineOrder(core, { ...request({}), symbol: '' }, CALLER, clock.t))).toBe(
      'INVALID_ARGUMENT: symbol is required',
    );
  });

  it('refuses a price that is not a whole number of ticks at the instrument scale', () => {
    const offScale = { ...request({}), price: request({}).price.plus('0.005') };
    expect(statusOf(() => toEngineOrder(core, offScale, CALLER, clock.t))).toMatch(/^INVALID_ARGUMENT: price: 0.425 is not representable/);
  });
});

describe('insertOutcome', () => {
  it('answers ACCEPTED with the order id for a working order', () => {
    const outcome = insertOutcome(core.submit(toEngineOrder(core, request({}), CALLER, clock.t)));
    expect(outcome).toEqual({ orderId: expect.stringMatching(/.+/), status: 'ACCEPTED', text: '' });
  });

  it('turns an argument reject (price out of bounds) into INVALID_ARGUMENT', () => {
    const result = core.submit(toEngineOrder(core, request({ price: '150' }), CALLER, clock.t));
    expect(statusOf(() => insertOutcome(result))).toContain('INVALID_ARGUMENT: ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS');
  });

  it('answers a market reject (instrument halted) as REJECTED with the engine text', () => {
    core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
    const outcome = insertOutcome(core.submit(toEngineOrder(core, request({}), CALLER, clock.t)));
    expect(outcome.status).toBe('REJECTED');
    expect(outcome.text).toContain('HALTED');
  });
});

describe('insertOrder', () => {
  it('answers a repeated insert (same account and clord_id) with the earlier order, rejected when it was rejected', () => {
    core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
    const first = insertOrder(core, toEngineOrder(core, request({ clord_id: 'R1' }), CALLER, clock.t));
    expect(first).toMatchObject({ status: 'REJECTED', duplicate: false });
    core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_OPEN');
    // the client's retry after a lost reply must not turn the refusal into an acceptance
    const retry = insertOrder(core, toEngineOrder(core, request({ clord_id: 'R1' }), CALLER, clock.t));
    expect(retry).toMatchObject({ orderId: first.orderId, status: 'REJECTED', duplicate: true });
    const working = insertOrder(core, toEngineOrder(core, request({ clord_id: 'A1' }), CALLER, clock.t));
    expect(insertOrder(core, toEngineOrder(core, request({ clord_id: 'A1' }), CALLER, clock.t))).toMatchObject({
      orderId: working.orderId,
      status: 'ACCEPTED',
      duplicate: true,
    });
  });
});

describe('toEngineReplace, toEngineCross and ownership checks', () => {
  it("maps a replace of the caller's order, leaving zero fields unchanged", () => {
    const id = insertOutcome(core.submit(toEngineOrder(core, request({}), CALLER, clock.t))).orderId;
    const replace = gateway.replaceOrderRequest.decode({ order_id: id, symbol: SYMBOL, price: '45' }, scaleLookup(core));
    expect(toEngineReplace(core, replace, CALLER)).toEqual({
      orderId: id,
      symbol: SYMBOL,
      newClordId: undefined,
      price: 45,
      stopPrice: undefined,
      orderQty: undefined,
      timeInForce: undefined,
      goodTillTime: undefined,
    });
  });

  it("refuses a replace of an unknown order and of another caller's order alike (NOT_FOUND), without id (INVALID_ARGUMENT)", () => {
    const id = insertOutcome(core.submit(toEngineOrder(core, request({}), CALLER, clock.t))).orderId;
    const decode = (json: Record<string, unknown>) => gateway.replaceOrderRequest.decode(json, scaleLookup(core));
    expect(statusOf(() => toEngineReplace(core, decode({ order_id: 'O-x', symbol: SYMBOL, price: '45' }), CALLER))).toMatch(/^NOT_FOUND/);
    expect(
      statusOf(() =>
        toEngineReplace(core, decode({ order_id: id, symbol: SYMBOL, price: '45' }), {
          participant: 'firms/demo/users/bob',
          accounts: [OTHER],
        }),
      ),
    ).toBe(`NOT_FOUND: unknown order ${id}`);
    expect(statusOf(() => toEngineReplace(core, decode({ symbol: SYMBOL, price: '45' }), CALLER))).toMatch(/^INVALID_ARGUMENT/);
  });

  it('toEngineCross needs a cross_id, cross_type set and exactly two requests', () => {
    const legs = [
      { symbol: SYMBOL, side: 'SIDE_BUY', order_qty: '1', price: '50', account: MAIN },
      { symbol: SYMBOL, side: 'SIDE_SELL', order_qty: '1', price: '50', account: MAIN },
    ];
    const decode = (json: Record<string, unknown>) => gateway.crossOrderRequest.decode(json, scaleLookup(core));
    const aon = { cross_type: 'CROSS_TYPE_ALL_OR_NONE' };
    expect(toEngineCross(core, decode({ cross_id: 'x', ...aon, requests: legs }), CALLER, clock.t).requests).toHaveLength(2);
    expect(statusOf(() => toEngineCross(core, decode({ ...aon, requests: legs }), CALLER, clock.t))).toBe(
      'INVALID_ARGUMENT: cross_id is required',
    );
    expect(statusOf(() => toEngineCross(core, decode({ cross_id: 'x', requests: legs }), CALLER, clock.t))).toMatch(
      /^INVALID_ARGUMENT: cross_type must be set/,
    );
    expect(statusOf(() => toEngineCross(core, decode({ cross_id: 'x', ...aon, requests: [...legs, ...legs] }), CALLER, clock.t))).toContain(
      'exactly 2 requests',
    );
  });

  it('checkAccount and checkCancel', () => {
    expect(statusOf(() => checkAccount(CALLER, MAIN))).toBe('no error');
    expect(statusOf(() => checkAccount(CALLER, OTHER))).toMatch(/^PERMISSION_DENIED/);
    expect(statusOf(() => checkCancel(core, { orderId: '' }, CALLER))).toMatch(/^INVALID_ARGUMENT/);
    expect(statusOf(() => checkCancel(core, { orderId: 'O-unknown' }, CALLER))).toBe(
      'NOT_FOUND: CXL_REJ_REASON_UNKNOWN_ORDER: unknown order O-unknown',
    );
    expect(checkCancel(core, { orderId: 'O-unknown' }, CALLER, true)).toBe(false);
    const id = insertOutcome(core.submit(toEngineOrder(core, request({}), CALLER, clock.t))).orderId;
    expect(checkCancel(core, { orderId: id }, CALLER)).toBe(true);
    const other = { participant: 'firms/demo/users/bob', accounts: [OTHER] };
    expect(statusOf(() => checkCancel(core, { orderId: id }, other))).toBe(`NOT_FOUND: CXL_REJ_REASON_UNKNOWN_ORDER: unknown order ${id}`);
    expect(checkCancel(core, { orderId: id }, other, true)).toBe(false);
  });
});
