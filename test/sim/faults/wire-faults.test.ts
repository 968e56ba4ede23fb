/**
 * The simulator's fault injector as seen on the gateway wire (raw HTTP, no client library): injected 429 /
 * 5xx answers leave no trace; a delayed or cut reply is processed first (the order exists); a stalled stream
 * stays open but silent; garbled order streams send executions twice or swapped; dropped streams end; the
 * `sim.faults` config drives the same faults by probability. With no fault set, nothing changes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ALICE, ALICE_MAIN, list, limitOrder, resultOf, startHarness, type Harness, type Json } from '../gateway/helpers/harness.ts';
import { isExecutionUpdate } from '../../../src/sim/faults/index.ts';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const INSERT = '/api/v1beta1/insert_order';

function executionIds(line: Json): string[] {
  return list(resultOf(line), 'update', 'executions').map((e) => String(e['id']));
}

describe('fault injection on the gateway wire', () => {
  it('failNext answers 429 with retry-after (or a 5xx) without processing the request, then serves normally', async () => {
    h = await startHarness();
    const token = await h.login(ALICE);
    h.sim.faults.failNext(1, { status: 429, path: INSERT });
    h.sim.faults.failNext(1, { status: 500, path: INSERT });
    const first = await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40', { clord_id: 'f-1' }));
    expect([first.status, first.headers.get('retry-after'), first.body['message']]).toEqual([429, '1', 'RESOURCE_EXHAUSTED']);
    const second = await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40', { clord_id: 'f-1' }));
    expect([second.status, second.body['message']]).toEqual([500, 'INTERNAL']);
    expect(h.sim.core.openOrders({ account: ALICE_MAIN })).toEqual([]);
    const third = await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40', { clord_id: 'f-1' }));
    expect(third.status).toBe(200);
    expect(h.sim.core.openOrders({ account: ALICE_MAIN })).toHaveLength(1);
    expect(h.sim.faults.stats.errors).toBe(2);
  });

  it('resetNext processes the insert, then cuts the connection mid-reply; a retry with the same clord_id gets the same order', async () => {
    h = await startHarness();
    const token = await h.login(ALICE);
    h.sim.faults.resetNext(1, { path: INSERT });
    await expect(h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40', { clord_id: 'r-1' }))).rejects.toThrow();
    const [resting] = h.sim.core.openOrders({ account: ALICE_MAIN });
    expect(resting?.order.clordId).toBe('r-1');
    const retry = await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40', { clord_id: 'r-1' }));
    expect(retry.body['order_id']).toBe(resting?.orderId);
    expect(h.sim.core.openOrders({ account: ALICE_MAIN })).toHaveLength(1);
    expect(h.sim.faults.stats.resets).toBe(1);
  });

  it('delayNext processes the request at once and answers late; an aborted caller leaves the order in place', async () => {
    h = await startHarness();
    const token = await h.login(ALICE);
    h.sim.faults.delayNext(1, 60_000, { path: INSERT });
    const controller = new AbortController();
    const late = fetch(`${h.url}${INSERT}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: token },
      body: JSON.stringify(limitOrder(ALICE_MAIN, 'SIDE_SELL', '3', '60', { clord_id: 'd-1' })),
      signal: controller.signal,
    });
    // processed before the (held) answer: the order rests already
    await new Promise<void>((resolve) => {
      const sub = h?.sim.core.events$.subscribe((e) => {
        if (e.kind === 'execution' && e.execution.order.clordId === 'd-1') {
          sub?.unsubscribe();
          resolve();
        }
      });
    });
    controller.abort();
    await expect(late).rejects.toThrow();
    expect(h.sim.core.openOrders({ account: ALICE_MAIN }).map((o) => o.order.clordId)).toEqual(['d-1']);
    expect(h.sim.faults.stats.delays).toBe(1);
  });

  it('stallStreams silences the open order stream (heartbeats too) without closing it; new streams are served', async () => {
    h = await startHarness({ gateway: 'rateLimitPerSecond: 10000, heartbeatSeconds: 0.05' });
    const token = await h.login(ALICE);
    const stalled = await h.stream('create_order_subscription', token, {});
    await stalled.count(2); // snapshot and a heartbeat
    expect(h.sim.faults.stallStreams()).toBe(1);
    const seen = stalled.lines.length;
    const fresh = await h.stream('create_order_subscription', token, {});
    await fresh.count(4); // snapshot and three heartbeats: time went by
    expect(stalled.lines.length).toBeLessThanOrEqual(seen + 1); // at most a line already in flight
    expect(stalled.isEnded).toBe(false);
    expect(h.sim.faults.openStreams).toBe(2);
  });

  it('garbled order streams send executions twice and swap adjacent ones; dropStreams ends every stream', async () => {
    h = await startHarness();
    const token = await h.login(ALICE);
    h.sim.faults.garbleOrderStreams({ duplicateProbability: 1, reorderProbability: 0 });
    const dup = await h.stream('create_order_subscription', token, {});
    await dup.count(1);
    await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40', { clord_id: 'g-1' }));
    await dup.until(() => dup.lines.filter(isExecutionUpdate).length >= 2);
    const [a, b] = dup.lines.filter(isExecutionUpdate);
    expect(executionIds(a as Json)).toEqual(executionIds(b as Json));
    expect(h.sim.faults.stats.duplicated).toBe(1);

    h.sim.faults.garbleOrderStreams({ duplicateProbability: 0, reorderProbability: 1 });
    const swapped = await h.stream('create_order_subscription', token, {});
    await swapped.count(1);
    await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '41', { clord_id: 'g-2' }));
    await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '42', { clord_id: 'g-3' }));
    await swapped.until(() => swapped.lines.filter(isExecutionUpdate).length >= 2);
    const clords = swapped.lines
      .filter(isExecutionUpdate)
      .map((line) => String((list(resultOf(line), 'update', 'executions')[0]?.['order'] as Json | undefined)?.['clord_id']));
    expect(clords).toEqual(['g-3', 'g-2']);
    expect(h.sim.faults.stats.reordered).toBe(2); // on both open order streams

    h.sim.faults.dropStreams();
    await Promise.all([dup.ended, swapped.ended]);
    expect(h.sim.faults.stats.drops).toBe(1);
  });

  it('sim.faults drives the same faults from config: every /api/ request fails with probability 1, /auth/ is untouched', async () => {
    h = await startHarness({
      tweak: (config) => ({
        ...config,
        faults: {
          ...config.faults,
          errors: { ...config.faults.errors, probability: config.startingBalance.div(config.startingBalance), statuses: [503] },
        },
      }),
    });
    const token = await h.login(ALICE);
    const refused = await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'));
    expect([refused.status, refused.body['message']]).toEqual([503, 'UNAVAILABLE']);
    h.sim.faults.clear();
    expect((await h.api('insert_order', token, limitOrder(ALICE_MAIN, 'SIDE_BUY', '5', '40'))).status).toBe(200);
  });
});
