/**
 * The gRPC client's handling of authentication and limits against the simulator: a stream or a unary
 * call answered UNAUTHENTICATED refreshes the token (`getToken(true)`) and goes on; without any valid
 * token it gives up with GRPC_UNAUTHENTICATED; a missing scope is fatal (GRPC_PERMISSION_DENIED); a stream
 * beyond the firm's limit is RESOURCE_EXHAUSTED, retried with backoff until a slot frees up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Decimal } from '../../../src/domain/index.ts';
import type { GrpcError } from '../../../src/exchange/grpc/index.ts';
import type { DisconnectedEvent } from '../../../src/domain/stream-events.ts';
import { record } from '../gateway/helpers/events.ts';
import { ALICE_MAIN, SYMBOL, type GrpcHarness, mintToken, startGrpcHarness } from '../../sim/grpc/helpers/harness.ts';

describe('gRPC client authentication and limits', () => {
  let h: GrpcHarness;
  afterEach(async () => h.close());

  /** A token source whose cached token has expired; a forced refresh mints a valid one. */
  async function expiringTokens(harness: GrpcHarness) {
    const calls: boolean[] = [];
    let current = await mintToken('alice', { nowMs: harness.clock.now() - 7_200_000, expiresAtMs: harness.clock.now() - 1_000 });
    return {
      calls,
      getToken: async (force = false): Promise<string> => {
        calls.push(force);
        if (force) current = await mintToken('alice', { nowMs: harness.clock.now() });
        return current;
      },
    };
  }

  it('a stream answered UNAUTHENTICATED refreshes the token and connects', async () => {
    h = await startGrpcHarness();
    const tokens = await expiringTokens(h);
    const events = record(h.client('alice', { getToken: tokens.getToken }).marketData$({ symbols: [SYMBOL] }));
    const dropped = (await events.waitFor((e) => e.type === 'disconnected')) as DisconnectedEvent;
    expect(dropped.reason).toBe('unauthenticated');
    expect(dropped.willReconnect).toBe(true);
    expect((dropped.error as GrpcError).code).toBe('GRPC_UNAUTHENTICATED');
    await events.waitFor((e) => e.type === 'book');
    expect(tokens.calls).toEqual([false, true, false]);
    events.stop();
  });

  it('a unary call answered UNAUTHENTICATED is sent once more with a refreshed token', async () => {
    h = await startGrpcHarness();
    const tokens = await expiringTokens(h);
    const client = h.client('alice', { getToken: tokens.getToken });
    const result = await client.insertOrder({
      account: ALICE_MAIN,
      symbol: SYMBOL,
      side: 'SIDE_BUY',
      type: 'ORDER_TYPE_LIMIT',
      orderQty: new Decimal(1),
      price: new Decimal('0.25'),
    });
    expect(result.status).toBe('ACCEPTED');
    expect(tokens.calls).toEqual([false, true]);
    expect(h.core.openOrders({ account: ALICE_MAIN })).toHaveLength(1);
  });

  it('gives up with GRPC_UNAUTHENTICATED when no valid token can be had', async () => {
    h = await startGrpcHarness();
    const client = h.client('alice', {
      getToken: async () => '',
      streams: { maxConsecutiveAuthFailures: 1, baseDelayMs: 1, maxDelayMs: 1 },
    });
    const events = record(client.marketData$({ symbols: [SYMBOL] }));
    expect(((await events.failed) as GrpcError).code).toBe('GRPC_UNAUTHENTICATED');
    expect(events.events.map((e) => (e as DisconnectedEvent).willReconnect)).toEqual([true, false]);
    await expect(client.getOpenOrders()).rejects.toMatchObject({ code: 'GRPC_UNAUTHENTICATED', kind: 'authentication' });
  });

  it('a missing scope is fatal: GRPC_PERMISSION_DENIED, no reconnect', async () => {
    h = await startGrpcHarness();
    const client = h.client('alice', { getToken: () => mintToken('alice', { scopes: ['read:marketdata'] }) });
    const events = record(client.positions$());
    const error = (await events.failed) as GrpcError;
    expect(error.code).toBe('GRPC_PERMISSION_DENIED');
    expect(error.kind).toBe('permission');
    expect(events.events).toEqual([expect.objectContaining({ type: 'disconnected', willReconnect: false })]);
    await expect(
      client.insertOrder({
        account: ALICE_MAIN,
        symbol: SYMBOL,
        side: 'SIDE_BUY',
        type: 'ORDER_TYPE_LIMIT',
        orderQty: new Decimal(1),
        price: new Decimal('0.25'),
      }),
    ).rejects.toMatchObject({
      code: 'GRPC_PERMISSION_DENIED',
    });
  });

  it('a stream beyond the firm limit is RESOURCE_EXHAUSTED and connects once a slot frees up', async () => {
    h = await startGrpcHarness({ limits: { maxStreamsPerFirm: 1 } });
    const client = h.client();
    const first = record(client.marketData$({ symbols: [SYMBOL] }));
    await first.waitFor((e) => e.type === 'connected');
    const second = record(client.orderUpdates$());
    const refused = (await second.waitFor((e) => e.type === 'disconnected')) as DisconnectedEvent;
    expect((refused.error as GrpcError).code).toBe('GRPC_RESOURCE_EXHAUSTED');
    expect(refused.willReconnect).toBe(true);
    first.stop();
    await second.waitFor((e) => e.type === 'snapshot');
    expect(h.server.openStreams('demo')).toBe(1);
    second.stop();
  });
});
