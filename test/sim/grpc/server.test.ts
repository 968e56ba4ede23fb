/**
 * The simulator's gRPC server on the wire: authentication and scopes, the per-firm stream limit, market data
 * limits and snapshot_only, order entry through the shared core (the same order on the gateway's stream;
 * previews validated as inserts),
 * heartbeats, dropAll, and the drop copy's resume token refusals. Raw calls (no client retries, no
 * decoding) so the statuses and messages are the server's own.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { filter as rxFilter } from 'rxjs';
import { GrpcChannel, bearerMetadata } from '../../../src/exchange/grpc/index.ts';
import { grpcCodecs, methodRef } from '../../../src/exchange/grpc/protocol/index.ts';
import { GatewayClient } from '../../../src/exchange/gateway/index.ts';
import type { ExecutionEvent } from '../../../src/domain/stream-events.ts';
import { record } from '../../exchange/gateway/helpers/events.ts';
import { Decimal } from '../../../src/domain/index.ts';
import { marketSnapshot } from '../../../src/sim/exchange/market-view.ts';
import {
  ALICE_MAIN,
  ALICE_PASSWORD,
  BOB_MAIN,
  SYMBOL,
  SYMBOL2,
  type GrpcHarness,
  mintToken,
  place,
  startGrpcHarness,
} from './helpers/harness.ts';
import { type Json, firstMessages, runToEnd, unaryError } from './helpers/calls.ts';

const MARKET_DATA = methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription');
const ORDERS = methodRef('OrderEntryAPI', 'CreateOrderSubscription');
const INSERT = methodRef('OrderEntryAPI', 'InsertOrder');
const PREVIEW = methodRef('OrderEntryAPI', 'PreviewOrder');
const DROP_COPY = methodRef('DropCopyAPI', 'CreateDropCopySubscription');

const marketRequest = (symbols: string[], snapshotOnly = false) =>
  grpcCodecs.marketDataSubscriptionRequest.encode({ symbols, depth: 0, snapshotOnly });
const orderRequest = (account: string, price: string) =>
  ({
    account,
    symbol: SYMBOL,
    side: 'SIDE_BUY',
    type: 'ORDER_TYPE_LIMIT',
    order_qty: '5',
    price,
    time_in_force: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
    clord_id: `c-${price}`,
  }) as const;

describe('gRPC server', () => {
  let h: GrpcHarness;
  let channel: GrpcChannel;
  let token: string;

  beforeEach(async () => {
    h = await startGrpcHarness({ limits: { maxStreamsPerFirm: 3, replayBufferSize: 5 }, gateway: true });
    channel = new GrpcChannel({ address: h.server.address });
    token = await mintToken('alice');
  });
  afterEach(async () => {
    channel.close();
    await h.close();
  });

  describe('authentication and scopes', () => {
    it('answers UNAUTHENTICATED without a token, on streams and unary calls', async () => {
      const stream = await runToEnd(channel, MARKET_DATA, marketRequest([SYMBOL]), '');
      expect(stream.error?.code).toBe('GRPC_UNAUTHENTICATED');
      expect(stream.messages).toEqual([]);
      const unary = await unaryError(channel, INSERT, orderRequest(ALICE_MAIN, '40'), '');
      expect(unary.code).toBe('GRPC_UNAUTHENTICATED');
      expect(unary.grpcCode).toBe(16);
    });

    it('answers UNAUTHENTICATED for an expired or forged token', async () => {
      const expired = await mintToken('alice', { nowMs: h.clock.now() - 7_200_000, expiresAtMs: h.clock.now() - 60_000 });
      expect((await runToEnd(channel, MARKET_DATA, marketRequest([SYMBOL]), expired)).error?.code).toBe('GRPC_UNAUTHENTICATED');
      const forged = `${token.slice(0, -4)}AAAA`;
      expect((await runToEnd(channel, MARKET_DATA, marketRequest([SYMBOL]), forged)).error?.code).toBe('GRPC_UNAUTHENTICATED');
    });

    it('answers PERMISSION_DENIED when the token lacks the scope', async () => {
      const ordersOnly = await mintToken('alice', { scopes: ['read:orders'] });
      const stream = await runToEnd(channel, MARKET_DATA, marketRequest([SYMBOL]), ordersOnly);
      expect(stream.error?.code).toBe('GRPC_PERMISSION_DENIED');
      expect(stream.error?.message).toContain('read:marketdata or read:l2marketdata');
      expect((await unaryError(channel, INSERT, orderRequest(ALICE_MAIN, '40'), ordersOnly)).code).toBe('GRPC_PERMISSION_DENIED');
      const l2 = await mintToken('alice', { scopes: ['read:l2marketdata'] });
      expect((await runToEnd(channel, MARKET_DATA, marketRequest([SYMBOL], true), l2)).error).toBeUndefined();
    });

    it('refuses an account the token does not hold', async () => {
      expect((await unaryError(channel, INSERT, orderRequest(BOB_MAIN, '40'), token)).code).toBe('GRPC_PERMISSION_DENIED');
      const stream = await runToEnd(
        channel,
        ORDERS,
        grpcCodecs.orderSubscriptionRequest.encode({ accounts: [BOB_MAIN], symbols: [], snapshotOnly: true }),
        token,
      );
      expect(stream.error?.code).toBe('GRPC_PERMISSION_DENIED');
    });
  });

  describe('market data', () => {
    it('refuses more than 1000 symbols, an unknown symbol and no symbol with INVALID_ARGUMENT', async () => {
      const many = Array.from({ length: 1001 }, (_, i) => `SYM-${i}`);
      const tooMany = await runToEnd(channel, MARKET_DATA, marketRequest(many), token);
      expect(tooMany.error?.code).toBe('GRPC_INVALID_ARGUMENT');
      expect(tooMany.error?.message).toContain('at most 1000 symbols');
      expect((await runToEnd(channel, MARKET_DATA, marketRequest(['NOPE']), token)).error?.code).toBe('GRPC_INVALID_ARGUMENT');
      expect((await runToEnd(channel, MARKET_DATA, marketRequest([]), token)).error?.code).toBe('GRPC_INVALID_ARGUMENT');
    });

    it('snapshot_only sends one full book per symbol, then ends OK', async () => {
      place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 40, qty: 3 });
      place(h.core, { account: ALICE_MAIN, side: 'SIDE_SELL', price: 60, qty: 4 });
      const { messages, error } = await runToEnd(channel, MARKET_DATA, marketRequest([SYMBOL, SYMBOL2], true), token);
      expect(error).toBeUndefined();
      expect(messages).toHaveLength(2);
      const books = messages.map((m) => grpcCodecs.marketDataStream.decode(m, h.catalog.scalesOf(SYMBOL)));
      const first = books[0];
      if (first?.kind !== 'update') throw new Error('expected an update');
      const expected = marketSnapshot(h.core, SYMBOL, 10);
      expect(first.bids.map((l) => [l.px.toString(), l.qty.toString()])).toEqual([['0.4', '3']]);
      expect(first.offers.map((l) => [l.px.toString(), l.qty.toString()])).toEqual([['0.6', '4']]);
      expect(first.state).toBe(expected?.state);
      expect(messages[0]?.['update']).toMatchObject({
        symbol: SYMBOL,
        bids: [{ px: '40', qty: '3' }],
        offers: [{ px: '60', qty: '4' }],
        state: 'INSTRUMENT_STATE_OPEN',
      });
    });

    it('keeps the instrument state of a CLOSED instrument (optional presence), not the absent default', async () => {
      h.core.setInstrumentState(SYMBOL2, 'INSTRUMENT_STATE_CLOSED');
      const { messages } = await runToEnd(channel, MARKET_DATA, marketRequest([SYMBOL2], true), token);
      const decoded = grpcCodecs.marketDataStream.decode(messages[0], h.catalog.scalesOf(SYMBOL2));
      expect(decoded.kind === 'update' ? decoded.state : 'none').toBe('INSTRUMENT_STATE_CLOSED');
    });

    it('sends heartbeats on idle streams', async () => {
      await h.close();
      h = await startGrpcHarness({ limits: { heartbeatMs: 20 } });
      channel.close();
      channel = new GrpcChannel({ address: h.server.address });
      const messages = await firstMessages(channel, MARKET_DATA, marketRequest([SYMBOL]), token, 3);
      expect(messages[0]?.['update']).toBeDefined();
      expect(messages.slice(1).map((m) => m['event'])).toEqual(['heartbeat', 'heartbeat']);
    });
  });

  describe('stream limit', () => {
    it('answers RESOURCE_EXHAUSTED beyond the per-firm limit, counts per firm, and frees slots on cancel', async () => {
      const open = [0, 1, 2].map(() => channel.serverStream(MARKET_DATA, marketRequest([SYMBOL]), bearerMetadata(token)));
      const first = await Promise.all(
        open.map(
          (o) =>
            new Promise<{ unsubscribe(): void }>((resolve) => {
              const sub = o.subscribe({ next: () => resolve(sub), error: () => undefined });
            }),
        ),
      );
      expect(h.server.openStreams('demo')).toBe(3);
      const refused = await runToEnd(channel, MARKET_DATA, marketRequest([SYMBOL]), token);
      expect(refused.error?.code).toBe('GRPC_RESOURCE_EXHAUSTED');
      const bob = await mintToken('bob');
      expect((await runToEnd(channel, MARKET_DATA, marketRequest([SYMBOL], true), bob)).error).toBeUndefined();
      first[0]?.unsubscribe();
      await vi.waitFor(() => expect(h.server.openStreams('demo')).toBe(2));
      const again = await firstMessages(channel, MARKET_DATA, marketRequest([SYMBOL]), token, 1);
      expect(again).toHaveLength(1);
      for (const sub of first) sub.unsubscribe();
    });
  });

  describe('order entry', () => {
    it('InsertOrder over gRPC is the same order in the core, on the gRPC order stream and on the gateway order stream', async () => {
      const gatewayClient = new GatewayClient({
        gatewayUrl: h.gatewayUrl ?? '',
        credentials: { username: 'alice', password: ALICE_PASSWORD },
        instruments: h.catalog,
        now: h.clock.now,
      });
      try {
        const viaGateway = record(gatewayClient.orderUpdates$());
        await viaGateway.waitFor((e) => e.type === 'snapshot');
        const viaGrpc = record(
          channel.serverStream(
            ORDERS,
            grpcCodecs.orderSubscriptionRequest.encode({ accounts: [], symbols: [], snapshotOnly: false }),
            bearerMetadata(token),
          ),
        );
        await viaGrpc.waitFor((m) => (m as Json)['snapshot'] !== undefined);
        const answer = (await channel.unary(INSERT, orderRequest(ALICE_MAIN, '45'), bearerMetadata(token), 5_000)) as Json;
        expect(answer).toMatchObject({ status: 'ACCEPTED', clord_id: 'c-45' });
        const orderId = answer['order_id'];
        expect(h.core.openOrders({ account: ALICE_MAIN }).map((o) => o.order.orderId)).toEqual([orderId]);
        const execution = await viaGateway.waitFor((e): e is ExecutionEvent => e.type === 'execution');
        expect(execution.execution.order.id).toBe(orderId);
        expect(execution.execution.order.price).toEqual(new Decimal('0.45'));
        const update = (await viaGrpc.waitFor((m) => (m as Json)['update'] !== undefined)) as Json;
        expect(update['update']).toMatchObject({ executions: [{ order: { id: orderId, price: '45', account: ALICE_MAIN } }] });
        viaGateway.stop();
        viaGrpc.stop();
      } finally {
        await gatewayClient.close({ logout: false });
      }
    });

    it('validates PreviewOrder as an insert: INVALID_ARGUMENT for a price off the limits, REJECTED on a halted instrument', async () => {
      const preview = (price: string) => ({ request: { ...orderRequest(ALICE_MAIN, price), clord_id: undefined } });
      const ok = (await channel.unary(PREVIEW, preview('45'), bearerMetadata(token), 5_000)) as Json;
      expect(ok['preview_order']).toMatchObject({ price: '45', leaves_qty: '5' });
      const offLimits = await unaryError(channel, PREVIEW, preview('150'), token);
      expect(offLimits.code).toBe('GRPC_INVALID_ARGUMENT');
      expect(offLimits.message).toContain('PRICE_OUT_OF_BOUNDS');
      h.core.setInstrumentState(SYMBOL, 'INSTRUMENT_STATE_HALTED');
      const halted = (await channel.unary(PREVIEW, preview('45'), bearerMetadata(token), 5_000)) as Json;
      expect(halted['preview_order']).toMatchObject({ state: 'ORDER_STATE_REJECTED' });
    });

    it('answers INVALID_ARGUMENT for an unknown symbol or a malformed price', async () => {
      expect((await unaryError(channel, INSERT, { ...orderRequest(ALICE_MAIN, '45'), symbol: 'NOPE' }, token)).code).toBe(
        'GRPC_INVALID_ARGUMENT',
      );
      const malformed = await unaryError(channel, INSERT, { ...orderRequest(ALICE_MAIN, '45'), price: '4.5' }, token);
      expect(malformed.code).toBe('GRPC_INVALID_ARGUMENT');
      expect(malformed.message).toContain('price');
    });
  });

  describe('drop copy resume tokens and dropAll', () => {
    it('refuses a token from another server run and one older than the replay buffer with OUT_OF_RANGE', async () => {
      const request = (resumeToken: string) => grpcCodecs.resumableRequest.encode({ accounts: [], symbols: [], resumeToken });
      const foreign = await runToEnd(channel, DROP_COPY, request('deadbeef.3'), token);
      expect(foreign.error?.code).toBe('GRPC_OUT_OF_RANGE');
      const [hello] = await firstMessages(channel, DROP_COPY, request(''), token, 1);
      const start = String(hello?.['resume_token']);
      for (let i = 0; i < 8; i++) place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 10 + i, qty: 1 });
      const tooOld = await runToEnd(channel, DROP_COPY, request(start), token);
      expect(tooOld.error?.code).toBe('GRPC_OUT_OF_RANGE');
      expect(tooOld.error?.message).toContain('older than the replay buffer');
    });

    it('dropAll ends every open stream with UNAVAILABLE', async () => {
      const ended = new Promise<string | undefined>((resolve) => {
        channel
          .serverStream(MARKET_DATA, marketRequest([SYMBOL]), bearerMetadata(token))
          .pipe(rxFilter(() => false))
          .subscribe({ error: (e: { code?: string }) => resolve(e.code) });
      });
      await vi.waitFor(() => expect(h.server.openStreams()).toBe(1));
      h.server.dropAll();
      expect(await ended).toBe('GRPC_UNAVAILABLE');
      await vi.waitFor(() => expect(h.server.openStreams()).toBe(0));
    });
  });
});
