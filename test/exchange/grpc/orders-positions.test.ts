/**
 * The gRPC client's order entry, order stream, positions, instrument states and lookups against the
 * simulator: an order inserted over gRPC shows up in the core and on the order stream (snapshot first,
 * then executions); positions arrive as a snapshot then changes and fill a local copy (positionsFrom); preview, cancel,
 * cancel-replace, open orders, ListInstruments and SearchTrades answer the same as the gateway would.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/index.ts';
import type { ExecutionEvent, OrderSnapshotEvent } from '../../../src/domain/stream-events.ts';
import type { DropCopyEvent, GrpcExchangeClient, PositionStreamEvent } from '../../../src/exchange/grpc/index.ts';
import { record } from '../gateway/helpers/events.ts';
import { positionsFrom } from '../helpers/book-copy.ts';
import {
  ALICE_HEDGE,
  ALICE_MAIN,
  BOB_MAIN,
  SYMBOL,
  SYMBOL2,
  type GrpcHarness,
  place,
  startGrpcHarness,
} from '../../sim/grpc/helpers/harness.ts';

const buy = (price: string, qty = 5) => ({
  account: ALICE_MAIN,
  symbol: SYMBOL,
  side: 'SIDE_BUY' as const,
  type: 'ORDER_TYPE_LIMIT' as const,
  orderQty: new Decimal(qty),
  price: new Decimal(price),
  timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL' as const,
});

describe('gRPC order entry, order stream and positions', () => {
  let h: GrpcHarness;
  let client: GrpcExchangeClient;
  beforeEach(async () => {
    h = await startGrpcHarness();
    client = h.client();
  });
  afterEach(async () => h.close());

  it('an order inserted over gRPC is in the core and on the order stream (snapshot, then executions once)', async () => {
    const resting = place(h.core, { account: ALICE_HEDGE, side: 'SIDE_SELL', price: 90, qty: 1 });
    const events = record(client.orderUpdates$());
    const snapshot = (await events.waitFor((e) => e.type === 'snapshot')) as OrderSnapshotEvent;
    expect(snapshot.orders.map((o) => o.id)).toEqual([resting]);
    const inserted = await client.insertOrder(buy('0.45'));
    expect(inserted).toMatchObject({ status: 'ACCEPTED', text: '' });
    expect(h.core.order(inserted.orderId)?.latest.order.clordId).toBe(inserted.clordId);
    const ack = (await events.waitFor((e) => e.type === 'execution' && e.execution.order.id === inserted.orderId)) as ExecutionEvent;
    expect(ack.execution.type).toBe('EXECUTION_TYPE_NEW');
    expect(ack.execution.order.price).toEqual(new Decimal('0.45'));

    await client.cancelOrder({ orderId: inserted.orderId, symbol: SYMBOL });
    await events.waitFor((e) => e.type === 'execution' && e.execution.type === 'EXECUTION_TYPE_CANCELED');
    await expect(client.cancelOrder({ orderId: inserted.orderId, symbol: SYMBOL })).rejects.toMatchObject({
      code: 'GRPC_FAILED_PRECONDITION',
    });
    expect(events.events.filter((e) => e.type === 'execution')).toHaveLength(2);
    events.stop();
  });

  it('a repeated clord_id answers with the earlier order; fills reach the stream and the drop copy', async () => {
    const events = record(client.orderUpdates$());
    const copies = record(client.dropCopy$());
    await events.waitFor((e) => e.type === 'snapshot');
    await copies.waitFor((e) => e.type === 'heartbeat');
    const first = await client.insertOrder({ ...buy('0.50', 5), clordId: 'same-1' });
    const again = await client.insertOrder({ ...buy('0.50', 5), clordId: 'same-1' });
    expect(again.orderId).toBe(first.orderId);
    expect(h.core.openOrders({ account: ALICE_MAIN })).toHaveLength(1);
    place(h.core, { account: BOB_MAIN, side: 'SIDE_SELL', price: 50, qty: 2, participant: 'firms/other/users/bob' });
    const fill = (await events.waitFor(
      (e) => e.type === 'execution' && e.execution.type === 'EXECUTION_TYPE_PARTIAL_FILL',
    )) as ExecutionEvent;
    expect(fill.execution.order.priceToQuantityFilled).toEqual([{ px: new Decimal('0.5'), qty: new Decimal(2) }]);
    expect(fill.execution.order.lastTradeId).toBe(fill.execution.tradeId);
    const copied = (await copies.waitFor((e) => e.type === 'execution' && e.execution.id === fill.execution.id)) as Extract<
      DropCopyEvent,
      { type: 'execution' }
    >;
    expect(copied.execution.order.priceToQuantityFilled).toEqual(fill.execution.order.priceToQuantityFilled);
    events.stop();
    copies.stop();
  });

  it('preview, list insert, cancel-replace, open orders and list cancel', async () => {
    const preview = await client.previewOrder(buy('0.30'));
    expect(preview).toMatchObject({ id: '', state: 'ORDER_STATE_NEW', account: ALICE_MAIN });
    expect(h.core.openOrders({ account: ALICE_MAIN })).toHaveLength(0);
    const list = await client.insertOrderList([buy('0.31'), buy('0.32', 2)]);
    expect(list.responses).toHaveLength(2);
    const first = list.responses[0]?.orderId ?? '';
    const replaced = await client.cancelReplaceOrder({
      orderId: first,
      symbol: SYMBOL,
      price: new Decimal('0.33'),
      orderQty: new Decimal(4),
    });
    const open = await client.getOpenOrders({ symbols: [SYMBOL] });
    expect(open.map((o) => o.price.toString()).sort()).toEqual(['0.32', '0.33']);
    expect(open.find((o) => o.id === replaced.orderId)?.orderQty).toEqual(new Decimal(4));
    await client.cancelOrderList(open.map((o) => ({ orderId: o.id, symbol: SYMBOL })));
    expect(await client.getOpenOrders()).toEqual([]);
    await expect(client.insertOrderList([])).rejects.toMatchObject({ code: 'GRPC_INVALID_REQUEST' });
  });

  it('positions: a snapshot, then each change, into the local copy', async () => {
    place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 40, qty: 3, symbol: SYMBOL2 });
    const events = record<PositionStreamEvent>(client.positions$());
    const copy = () => positionsFrom(events.events);
    await events.waitFor((e) => e.type === 'positionSnapshot');
    expect(copy().stale).toBe(false);
    expect(copy().position(ALICE_MAIN, SYMBOL2)?.openBuyQty).toEqual(new Decimal(3));

    place(h.core, { account: ALICE_MAIN, side: 'SIDE_SELL', price: 55, qty: 4 });
    place(h.core, { account: BOB_MAIN, side: 'SIDE_BUY', price: 55, qty: 4, participant: 'firms/other/users/bob' });
    await events.waitFor((e) => e.type === 'position' && copy().position(ALICE_MAIN, SYMBOL)?.netPosition.eq(-4) === true);
    const position = copy().position(ALICE_MAIN, SYMBOL);
    expect(position?.avgEntryPx).toEqual(new Decimal('0.55'));
    expect(position?.openSellQty).toEqual(new Decimal(0));
    expect(copy().position(BOB_MAIN, SYMBOL)).toBeUndefined();

    h.server.dropAll();
    const dropped = await events.waitFor((e) => e.type === 'disconnected');
    expect(positionsFrom(events.events.slice(0, events.events.indexOf(dropped) + 1)).stale).toBe(true);
    await events.waitFor((e) => e.type === 'positionSnapshot' && events.events.indexOf(e) > events.events.indexOf(dropped));
    expect(copy().stale).toBe(false);
    expect(copy().position(ALICE_MAIN, SYMBOL)?.netPosition).toEqual(new Decimal(-4));
    events.stop();
  });

  it('instrument states, ListInstruments and SearchTrades', async () => {
    const states = record(client.instrumentStates$({ symbols: [SYMBOL] }));
    await states.waitFor((e) => e.type === 'state' && e.state === 'INSTRUMENT_STATE_OPEN');
    h.core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
    await states.waitFor((e) => e.type === 'state' && e.state === 'INSTRUMENT_STATE_HALTED');
    states.stop();

    const { instruments, nextPageToken } = await client.listInstruments({ pageSize: 1 });
    expect(instruments).toHaveLength(1);
    expect(instruments[0]).toMatchObject({ symbol: SYMBOL, priceScale: 100, state: 'INSTRUMENT_STATE_HALTED' });
    expect(instruments[0]?.tickSize).toEqual(new Decimal('0.01'));
    expect((await client.listInstruments({ pageToken: nextPageToken })).instruments.map((i) => i.symbol)).toEqual([SYMBOL2]);

    place(h.core, { account: ALICE_MAIN, side: 'SIDE_SELL', price: 61, qty: 2, symbol: SYMBOL2 });
    place(h.core, { account: BOB_MAIN, side: 'SIDE_BUY', price: 61, qty: 2, symbol: SYMBOL2, participant: 'firms/other/users/bob' });
    const { trades } = await client.searchTrades({ symbol: SYMBOL2 });
    expect(trades).toHaveLength(1);
    expect(trades[0]?.passive.lastPx).toEqual(new Decimal('0.61'));
  });
});
