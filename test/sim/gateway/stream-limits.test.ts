/**
 * The gateway's NDJSON streams are bounded like the gRPC ones (issue 21, point 4): a client that stops
 * reading cannot make the sim buffer without bound (once `sim.gateway.maxStreamBufferBytes` wait behind the
 * connection, the stream ends with a RESOURCE_EXHAUSTED error line and its slot is freed), and a firm may hold
 * at most `sim.gateway.maxStreamsPerFirm` streams at once (one more is 429 RESOURCE_EXHAUSTED; closing one
 * frees its slot). Nothing sleeps: tests wait on the sim's stream count and on stream lines.
 */
import http from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ALICE_MAIN, BOB, SYMBOL, startHarness, type Harness, type Json } from './helpers/harness.ts';

let h: Harness;
afterEach(async () => h?.close());

/** A market data stream read with node:http, so the test can stop reading (pause) and resume. */
function rawStream(token: string): Promise<{ response: http.IncomingMessage; request: http.ClientRequest }> {
  const url = new URL(`${h.url}/api/v1beta1/create_market_data_subscription`);
  const body = JSON.stringify({ symbols: [SYMBOL] });
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', authorization: token, 'content-length': Buffer.byteLength(body) } },
      (response) => resolve({ response, request }),
    );
    request.on('error', reject);
    request.end(body);
  });
}

describe('NDJSON stream limits', () => {
  it('ends the stream of a client that stopped reading with a RESOURCE_EXHAUSTED error line', async () => {
    h = await startHarness({ gateway: 'rateLimitPerSecond: 10000, maxStreamBufferBytes: 65536' });
    const token = await h.token('alice');
    const { response } = await rawStream(token);
    expect(response.statusCode).toBe(200);
    response.pause();
    let placed = 0;
    await vi.waitFor(
      () => {
        // 100 book changes per turn (~35 kB of lines, under the 64 kB limit): only a client that does not read
        // lets the waiting bytes pile up past it
        for (let i = 0; i < 100; i++) {
          h.sim.core.submit({
            symbol: SYMBOL,
            side: 'SIDE_BUY',
            type: 'ORDER_TYPE_LIMIT',
            orderQty: 1,
            price: 1 + (placed++ % 45),
            timeInForce: 'TIME_IN_FORCE_GOOD_TILL_CANCEL',
            account: ALICE_MAIN,
            participant: 'firms/demo/users/alice',
          });
        }
        expect(h.sim.gatewayStreamCount()).toBe(0);
      },
      { timeout: 30_000, interval: 2 },
    );
    // the client reads again: everything buffered, then the error line
    let text = '';
    response.setEncoding('utf8');
    const ended = new Promise<void>((resolve) => response.once('end', () => resolve()).once('close', () => resolve()));
    response.on('data', (chunk: string) => (text += chunk));
    response.resume();
    await ended;
    const last = JSON.parse(text.trimEnd().split('\n').at(-1) ?? '{}') as Json;
    expect(last['error']).toMatchObject({ code: 8, message: 'RESOURCE_EXHAUSTED' });
    expect(JSON.stringify(last)).toContain('slow consumer');
  });

  it('caps the streams one firm holds open; closing one frees its slot', async () => {
    h = await startHarness({
      gateway: 'rateLimitPerSecond: 10000, maxStreamsPerFirm: 3',
      extraUsers: `    - username: carol
      password: Demo-Carol-Pass-2026
      participant: firms/other/users/carol
      accounts: [firms/other/accounts/carol-main]`,
    });
    const alice = await h.token('alice');
    const bob = await h.token(BOB.username);
    const open = [
      await h.stream('create_market_data_subscription', alice, { symbols: [SYMBOL] }),
      await h.stream('create_order_subscription', bob, {}),
      await h.stream('create_instrument_state_change_subscription', alice, {}),
    ];
    for (const s of open) expect(s.status).toBe(200);
    await vi.waitFor(() => expect(h.sim.gatewayStreamCount()).toBe(3));
    const refused = await h.post('/api/v1beta1/create_market_data_subscription', { symbols: [SYMBOL] }, { token: alice });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 8, message: 'RESOURCE_EXHAUSTED' });
    expect(String(refused.body['details'])).toContain('3 streams');
    // another firm is not affected
    const carol = await h.stream('create_market_data_subscription', await h.token('carol'), { symbols: [SYMBOL] });
    expect(carol.status).toBe(200);
    open[0]?.close();
    await vi.waitFor(() => expect(h.sim.gatewayStreamCount()).toBe(3));
    const again = await h.stream('create_market_data_subscription', alice, { symbols: [SYMBOL] });
    expect(again.status).toBe(200);
  });
});
