// New-order validation: every refusal is a REJECTED execution with a reason and a text, never an exception.
import { describe, expect, it } from 'vitest';
import type { OrdRejectReason, OrderRequest } from '../../../src/sim/matching/index.ts';
import { buy, first, sell, setup, SYM, types } from './helpers.ts';

function rejectedWith(req: OrderRequest, reason: OrdRejectReason, text: RegExp, setupOverrides = {}): void {
  const { engine } = setup(setupOverrides);
  const res = engine.submit(req);
  expect(types(res)).toEqual(['REJECTED']);
  const e = first(res);
  expect(e.orderRejectReason).toBe(reason);
  expect(e.text).toMatch(text);
  expect(e.state).toBe('ORDER_STATE_REJECTED');
  expect(e.leavesQty).toBe(0);
  expect(engine.book(SYM).orderCount()).toBe(0);
}

describe('order validation', () => {
  it('rejects an unknown symbol with UNKNOWN_SYMBOL', () => {
    rejectedWith(buy(1, 50, { symbol: 'NOPE' }), 'ORD_REJECT_REASON_UNKNOWN_SYMBOL', /unknown symbol NOPE/);
  });

  it('rejects a quantity that is not a positive multiple of the lot with INCORRECT_QUANTITY', () => {
    rejectedWith(buy(0, 50), 'ORD_REJECT_REASON_INCORRECT_QUANTITY', /positive integer/);
    rejectedWith(buy(-5, 50), 'ORD_REJECT_REASON_INCORRECT_QUANTITY', /positive integer/);
    rejectedWith(buy(1.5, 50), 'ORD_REJECT_REASON_INCORRECT_QUANTITY', /positive integer/);
    rejectedWith(buy(150, 50), 'ORD_REJECT_REASON_INCORRECT_QUANTITY', /multiple of the lot size 100/, { lotSize: 100 });
  });

  it('rejects a quantity above maxOrderQty with INCORRECT_QUANTITY', () => {
    rejectedWith(buy(1001, 50), 'ORD_REJECT_REASON_INCORRECT_QUANTITY', /above the maximum 1000/, { maxOrderQty: 1000 });
  });

  it('rejects a price off the tick with INVALID_PRICE_INCREMENT', () => {
    rejectedWith(buy(1, 53), 'ORD_REJECT_REASON_INVALID_PRICE_INCREMENT', /tick size 5/, {
      tickSize: 5,
      priceLimitLow: 5,
      priceLimitHigh: 95,
    });
    rejectedWith(buy(1, 50.5), 'ORD_REJECT_REASON_INVALID_PRICE_INCREMENT', /integer raw price/);
  });

  it('rejects a price outside the instrument limits with PRICE_OUT_OF_BOUNDS', () => {
    rejectedWith(buy(1, 0), 'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS', /outside the price limits \[1, 99\]/);
    rejectedWith(sell(1, 100), 'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS', /outside/);
    rejectedWith(buy(1, 50, { type: 'ORDER_TYPE_STOP_LIMIT', stopPrice: 120 }), 'ORD_REJECT_REASON_PRICE_OUT_OF_BOUNDS', /stop_price 120/);
  });

  it('rejects a LIMIT order without a price and unsupported types with INCORRECT_ORDER_TYPE', () => {
    rejectedWith({ ...buy(1, 50), price: undefined }, 'ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', /requires a price/);
    rejectedWith(buy(1, 50, { type: 'ORDER_TYPE_UNDEFINED' }), 'ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', /unsupported order type/);
    rejectedWith(buy(1, 50, { type: 'ORDER_TYPE_MARKET_TO_LIMIT' }), 'ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', /must not carry a price/);
    rejectedWith(buy(1, 50, { stopPrice: 40 }), 'ORD_REJECT_REASON_INCORRECT_ORDER_TYPE', /stop_price/);
    rejectedWith(
      { ...buy(1, 50, { type: 'ORDER_TYPE_STOP' }), price: undefined },
      'ORD_REJECT_REASON_INCORRECT_ORDER_TYPE',
      /requires a stop_price/,
    );
  });

  it('rejects orders while the instrument does not accept them with EXCHANGE_CLOSED', () => {
    for (const state of [
      'INSTRUMENT_STATE_HALTED',
      'INSTRUMENT_STATE_SUSPENDED',
      'INSTRUMENT_STATE_CLOSED',
      'INSTRUMENT_STATE_PENDING',
    ] as const) {
      rejectedWith(buy(1, 50), 'ORD_REJECT_REASON_EXCHANGE_CLOSED', new RegExp(state), { state });
    }
  });

  it('rejects field problems without a dedicated reason with EXCHANGE_OPTION', () => {
    rejectedWith(buy(1, 50, { account: '' }), 'ORD_REJECT_REASON_EXCHANGE_OPTION', /account is required/);
    rejectedWith(buy(1, 50, { side: 'SIDE_UNDEFINED' as never }), 'ORD_REJECT_REASON_EXCHANGE_OPTION', /side must be/);
    rejectedWith(buy(1, 50, { timeInForce: 'TIME_IN_FORCE_WEEK' as never }), 'ORD_REJECT_REASON_EXCHANGE_OPTION', /unknown time in force/);
    rejectedWith(
      buy(1, 50, { selfMatchPreventionInstruction: 'SELF_MATCH_PREVENTION_INSTRUCTION_MAYBE' as never }),
      'ORD_REJECT_REASON_EXCHANGE_OPTION',
      /self_match_prevention_instruction/,
    );
  });

  it('rejects min_qty above the order quantity or off the lot with INCORRECT_QUANTITY', () => {
    rejectedWith(
      buy(5, 50, { minQty: 6, timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }),
      'ORD_REJECT_REASON_INCORRECT_QUANTITY',
      /min_qty 6/,
    );
    rejectedWith(buy(100, 50, { minQty: 50 }), 'ORD_REJECT_REASON_INCORRECT_QUANTITY', /min_qty 50 is not a multiple/, { lotSize: 100 });
  });

  it('rejects good_till_time in the past, missing, or without GOOD_TILL_TIME', () => {
    const { engine, clock } = setup();
    const gtt = (extra: Partial<OrderRequest>) => first(engine.submit(buy(1, 50, extra)));
    expect(gtt({ timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME' }).text).toMatch(/good_till_time must be/);
    expect(gtt({ timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME', goodTillTime: clock.t }).orderRejectReason).toBe(
      'ORD_REJECT_REASON_EXCHANGE_OPTION',
    );
    expect(gtt({ goodTillTime: clock.t + 1000 }).text).toMatch(/only allowed with TIME_IN_FORCE_GOOD_TILL_TIME/);
    expect(gtt({ timeInForce: 'TIME_IN_FORCE_GOOD_TILL_TIME', goodTillTime: clock.t + 1 }).type).toBe('EXECUTION_TYPE_NEW');
  });

  it('rejects contradictory post-only combinations', () => {
    rejectedWith(
      buy(1, 50, { participateDontInitiate: true, timeInForce: 'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL' }),
      'ORD_REJECT_REASON_EXCHANGE_OPTION',
      /cannot be combined/,
    );
    rejectedWith(
      { ...buy(1, 50, { participateDontInitiate: true, type: 'ORDER_TYPE_MARKET_TO_LIMIT' }), price: undefined },
      'ORD_REJECT_REASON_EXCHANGE_OPTION',
      /cannot be used with ORDER_TYPE_MARKET_TO_LIMIT/,
    );
  });

  it('rejects a duplicate clord_id of a working order of the same account, and allows it once done', () => {
    const { engine } = setup();
    const a = engine.submit(buy(1, 40, { clordId: 'X1' }));
    const dup = engine.submit(buy(1, 41, { clordId: 'X1' }));
    expect(first(dup).type).toBe('EXECUTION_TYPE_REJECTED');
    expect(first(dup).text).toMatch(/duplicate clord_id X1/);
    // Another account may use the same clord_id.
    expect(first(engine.submit(buy(1, 41, { clordId: 'X1', account: 'other' }))).type).toBe('EXECUTION_TYPE_NEW');
    engine.cancel({ orderId: first(a).order.orderId });
    expect(first(engine.submit(buy(1, 42, { clordId: 'X1' }))).type).toBe('EXECUTION_TYPE_NEW');
  });

  it('gives a rejected order an order id and echoes the request terms', () => {
    const { engine } = setup();
    const e = first(engine.submit(buy(1, 0, { clordId: 'C9', tag: { mine: true } })));
    expect(e.order.orderId).toMatch(/^O\d{16}$/);
    expect(e.order.clordId).toBe('C9');
    expect(e.order.tag).toEqual({ mine: true });
    expect(e.order.price).toBe(0);
  });
});
