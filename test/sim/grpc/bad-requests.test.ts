/**
 * Requests the gRPC fuzzing found trouble with, pinned as regressions:
 * - bytes that are not a protobuf message of the method's request type: INVALID_ARGUMENT naming the method
 *   (grpc-js alone answers an opaque INTERNAL "Error deserializing request");
 * - a request echoing a huge value into the status (a 150 KB account name): the details are cut, so the
 *   `grpc-message` trailer stays readable (uncut, the client never saw the status and the connection
 *   stalled), and the server goes on answering;
 * - an instrument state subscription naming no listed symbol: a heartbeat at once, so the client knows the
 *   stream is live.
 * Plus the details helper itself (cut length, no lone surrogate).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Client, credentials, status, type ServiceError } from '@grpc/grpc-js';
import { GrpcChannel, bearerMetadata } from '../../../src/exchange/grpc/index.ts';
import { exchangeProtocol, methodRef } from '../../../src/exchange/grpc/protocol/index.ts';
import { DETAILS_MAX, statusDetails } from '../../../src/sim/grpc/errors.ts';
import { type GrpcHarness, mintToken, startGrpcHarness } from './helpers/harness.ts';
import { firstMessages, unaryError } from './helpers/calls.ts';

const OPEN_ORDERS = methodRef('OrderEntryAPI', 'GetOpenOrders');
const INSERT = methodRef('OrderEntryAPI', 'InsertOrder');

describe('gRPC server and bad requests', () => {
  let h: GrpcHarness;
  let channel: GrpcChannel;
  let token: string;

  beforeEach(async () => {
    h = await startGrpcHarness();
    channel = new GrpcChannel({ address: h.server.address });
    token = await mintToken('alice');
  });
  afterEach(async () => {
    channel.close();
    await h.close();
  });

  it('answers INVALID_ARGUMENT to bytes that are not the request message', async () => {
    const raw = new Client(h.server.address, credentials.createInsecure());
    try {
      const path = exchangeProtocol().method(INSERT).path;
      const identity = (b: Buffer): Buffer => b;
      // a tag of field 1 with wire type 7, which does not exist
      const error = await new Promise<ServiceError | null>((resolve) => {
        raw.makeUnaryRequest(path, identity, identity, Buffer.from([0x0f]), bearerMetadata(token), (e) => resolve(e));
      });
      expect(error?.code).toBe(status.INVALID_ARGUMENT);
      expect(error?.details).toMatch(/OrderEntryAPI\.InsertOrder request is not a valid protobuf message/);
      expect(h.core.openOrders({ account: 'firms/demo/accounts/alice-main' })).toEqual([]);
    } finally {
      raw.close();
    }
  });

  it('cuts the details of a status that echoes a huge value, and keeps serving', async () => {
    const huge = `firms/other/accounts/${'x'.repeat(150_000)}`;
    const denied = await unaryError(channel, OPEN_ORDERS, { accounts: [huge] }, token);
    expect(denied.code).toBe('GRPC_PERMISSION_DENIED');
    expect(denied.message.length).toBeLessThan(DETAILS_MAX + 200);
    expect(await channel.unary(OPEN_ORDERS, {}, bearerMetadata(token), 5_000)).toEqual({});
  });

  it('sends a heartbeat at once on an instrument state subscription that names no listed symbol', async () => {
    const [first] = await firstMessages(
      channel,
      methodRef('DropCopyAPI', 'CreateInstrumentStateChangeSubscription'),
      { symbols: ['NOT-LISTED'] },
      token,
      1,
    );
    expect(first).toEqual({ heartbeat: {}, event: 'heartbeat' });
  });

  it('status details are well formed and at most DETAILS_MAX characters (plus the cut note)', () => {
    expect(statusDetails('short')).toBe('short');
    const cut = statusDetails(`${'a'.repeat(DETAILS_MAX - 1)}🙂tail`);
    expect(cut.startsWith('a'.repeat(DETAILS_MAX - 1))).toBe(true);
    expect(cut).toMatch(/\.\.\. \(\d+ more characters\)$/);
    expect(cut).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(statusDetails('bad \ud800 text')).toBe('bad \ufffd text');
  });
});
