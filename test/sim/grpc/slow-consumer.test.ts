/**
 * A client that stops reading cannot make the server buffer without bound: once `maxQueuedMessages` wait
 * behind HTTP/2 flow control, the stream is cut with RESOURCE_EXHAUSTED (the client reconnects and
 * resnapshots) and its slot is freed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Client, credentials } from '@grpc/grpc-js';
import type { ServiceError } from '@grpc/grpc-js';
import { bearerMetadata } from '../../../src/exchange/grpc/index.ts';
import { exchangeProtocol, grpcCodecs, methodRef } from '../../../src/exchange/grpc/protocol/index.ts';
import { ALICE_MAIN, SYMBOL, type GrpcHarness, mintToken, place, startGrpcHarness } from './helpers/harness.ts';

describe('slow consumer', () => {
  let h: GrpcHarness;
  let client: Client | undefined;
  afterEach(async () => {
    client?.close();
    await h.close();
  });

  it('cuts a stream whose client stopped reading with RESOURCE_EXHAUSTED', async () => {
    h = await startGrpcHarness({ limits: { maxQueuedMessages: 1000 } });
    client = new Client(h.server.address, credentials.createInsecure());
    const wire = exchangeProtocol().method(methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription'));
    const request = grpcCodecs.marketDataSubscriptionRequest.encode({ symbols: [SYMBOL], depth: 0, snapshotOnly: false });
    const call = client.makeServerStreamRequest<object, unknown>(
      wire.path,
      wire.serializeRequest,
      wire.deserializeResponse,
      request,
      bearerMetadata(await mintToken('alice')),
    );
    const status = new Promise<number>((resolve) => call.on('error', (e: ServiceError) => resolve(e.code)));
    await new Promise<void>((resolve) => call.once('data', () => resolve()));
    call.pause();
    let placed = 0;
    // 20 changes per turn of the event loop: far under the limit of 1000, so only a client that does not read
    // (HTTP/2 flow control holds the server's writes) lets the queue grow past it
    await vi.waitFor(
      () => {
        for (let i = 0; i < 20; i++) place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 1 + (placed++ % 45), qty: 1 });
        expect(h.server.openStreams()).toBe(0);
      },
      { timeout: 20_000, interval: 2 },
    );
    expect(placed).toBeGreaterThan(1000);
    call.resume();
    expect(await status).toBe(8);
  });

  it('keeps a stream whose client reads, at the same rate', async () => {
    h = await startGrpcHarness({ limits: { maxQueuedMessages: 1000 } });
    client = new Client(h.server.address, credentials.createInsecure());
    const wire = exchangeProtocol().method(methodRef('MarketDataSubscriptionAPI', 'CreateMarketDataSubscription'));
    const request = grpcCodecs.marketDataSubscriptionRequest.encode({ symbols: [SYMBOL], depth: 0, snapshotOnly: false });
    const call = client.makeServerStreamRequest<object, unknown>(
      wire.path,
      wire.serializeRequest,
      wire.deserializeResponse,
      request,
      bearerMetadata(await mintToken('alice')),
    );
    let received = 0;
    call.on('data', () => received++);
    call.on('error', () => undefined);
    await vi.waitFor(() => expect(received).toBe(1));
    let placed = 0;
    await vi.waitFor(
      () => {
        // the market moves as fast as the client reads (at most ~200 updates ahead of it): placing 3,000 orders in a
        // burst outran loopback on a slower machine and filled the 1,000-message queue, which is the other test's case
        if (received - 1 >= placed - 200) {
          for (let i = 0; i < 20; i++) place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 1 + (placed++ % 45), qty: 1 });
        }
        expect(placed).toBeGreaterThanOrEqual(3000);
      },
      { timeout: 20_000, interval: 2 },
    );
    await vi.waitFor(() => expect(received).toBe(1 + placed), { timeout: 10_000 });
    expect(h.server.openStreams()).toBe(1);
    call.cancel();
  });
});
