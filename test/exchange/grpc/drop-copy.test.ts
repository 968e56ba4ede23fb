/**
 * Resumable streams against the simulator over loopback: a drop copy killed server-side resumes from the
 * client's last resume token without gaps or duplicates (checked with deduplication off, so only the
 * server's replay is tested), trade capture the same, a persisted token resumes a new subscription, and an
 * unusable token (older than the replay buffer) becomes `resumeLost` and the stream carries on.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DropCopyEvent, TradeCaptureStreamEvent } from '../../../src/exchange/grpc/index.ts';
import type { ExchangeCore } from '../../../src/sim/exchange/exchange-core.ts';
import { record } from '../gateway/helpers/events.ts';
import { ALICE_HEDGE, ALICE_MAIN, BOB_MAIN, type GrpcHarness, place, startGrpcHarness } from '../../sim/grpc/helpers/harness.ts';

type DropCopyExecution = Extract<DropCopyEvent, { type: 'execution' }>;
type Captured = Extract<TradeCaptureStreamEvent, { type: 'trade' }>;

/** Execution ids of alice's accounts, in core order, while `run` runs. */
function aliceExecutions(core: ExchangeCore, run: () => void): string[] {
  const ids: string[] = [];
  const sub = core.events$.subscribe((e) => {
    if (e.kind === 'execution' && [ALICE_MAIN, ALICE_HEDGE].includes(e.execution.order.account)) ids.push(e.execution.id);
  });
  run();
  sub.unsubscribe();
  return ids;
}

/** Alice rests, Bob takes: every pair is one trade with one alice execution per fill. */
function trades(core: ExchangeCore, count: number, price: number): void {
  for (let i = 0; i < count; i++) {
    place(core, { account: ALICE_MAIN, side: 'SIDE_SELL', price, qty: 1 });
    place(core, { account: BOB_MAIN, side: 'SIDE_BUY', price, qty: 1, participant: 'firms/other/users/bob' });
  }
}

const seqOf = (token: string): number => Number(token.split('.')[1]);

describe('gRPC drop copy and trade capture', () => {
  let h: GrpcHarness;
  afterEach(async () => h.close());

  it('resumes a drop copy dropped by the server without gaps or duplicates', async () => {
    h = await startGrpcHarness();
    const events = record(h.client().dropCopy$({ dedupe: false }));
    await events.waitFor((e) => e.type === 'heartbeat');
    const first = aliceExecutions(h.core, () => {
      for (let i = 0; i < 10; i++) place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 10 + i, qty: 1 });
    });
    await events.waitFor((e) => e.type === 'execution' && e.execution.id === first.at(-1));

    h.server.dropAll();
    const second = aliceExecutions(h.core, () => {
      trades(h.core, 5, 60);
      for (let i = 0; i < 5; i++) place(h.core, { account: ALICE_HEDGE, side: 'SIDE_SELL', price: 80 + i, qty: 2 });
    });
    const all = [...first, ...second];
    await events.waitFor((e) => e.type === 'execution' && e.execution.id === all.at(-1));

    const executions = events.events.filter((e): e is DropCopyExecution => e.type === 'execution');
    expect(executions.map((e) => e.execution.id)).toEqual(all);
    const seqs = executions.map((e) => seqOf(e.resumeToken));
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(events.events.filter((e) => e.type === 'connected').map((e) => (e as { attempt: number }).attempt)).toEqual([1, 2]);
    expect(events.events.some((e) => e.type === 'resumeLost')).toBe(false);
    events.stop();
  });

  it('resumes trade capture after a drop: every trade once, in order', async () => {
    h = await startGrpcHarness();
    const events = record(h.client().tradeCaptureReports$({ dedupe: false }));
    await events.waitFor((e) => e.type === 'heartbeat');
    trades(h.core, 3, 50);
    await events.waitFor((e) => e.type === 'trade' && e.trade.id === h.core.trades().at(-1)?.id);
    h.server.dropAll();
    trades(h.core, 4, 51);
    const expected = h.core.trades().map((t) => t.id);
    await events.waitFor((e) => e.type === 'trade' && e.trade.id === expected.at(-1));
    const received = events.events.filter((e): e is Captured => e.type === 'trade');
    expect(received.map((e) => e.trade.id)).toEqual(expected);
    // alice's firm sees its own side in full and nothing that identifies bob's firm (trade-view.ts)
    expect(received.every((e) => e.trade.aggressor.order.account === '' && e.trade.passive.order.account === ALICE_MAIN)).toBe(true);
    events.stop();
  });

  it('a new subscription resumes from a persisted token', async () => {
    h = await startGrpcHarness();
    const client = h.client();
    const before = record(client.dropCopy$());
    const firstIds = aliceExecutions(h.core, () => place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 30, qty: 1 }));
    // the first subscription may open after the order: wait for its heartbeat, then place one more
    await before.waitFor((e) => e.type === 'heartbeat');
    const seen = aliceExecutions(h.core, () => place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 31, qty: 1 }));
    const last = (await before.waitFor((e) => e.type === 'execution' && e.execution.id === seen[0])) as DropCopyExecution;
    before.stop();
    const missed = aliceExecutions(h.core, () => {
      for (let i = 0; i < 3; i++) place(h.core, { account: ALICE_HEDGE, side: 'SIDE_BUY', price: 20 + i, qty: 1 });
    });
    const after = record(client.dropCopy$({ resumeToken: last.resumeToken }));
    await after.waitFor((e) => e.type === 'execution' && e.execution.id === missed.at(-1));
    expect(after.events.filter((e): e is DropCopyExecution => e.type === 'execution').map((e) => e.execution.id)).toEqual(missed);
    expect(firstIds).toHaveLength(1);
    after.stop();
  });

  it('reports resumeLost when the token is older than the replay buffer, then carries on live', async () => {
    h = await startGrpcHarness({ limits: { replayBufferSize: 4 } });
    const events = record(h.client().dropCopy$());
    await events.waitFor((e) => e.type === 'heartbeat');
    h.server.dropAll();
    for (let i = 0; i < 6; i++) place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 10 + i, qty: 1 });
    const lost = await events.waitFor((e) => e.type === 'resumeLost');
    expect((lost as { error: { code?: string } }).error.code).toBe('GRPC_OUT_OF_RANGE');
    await events.waitFor((e) => e.type === 'heartbeat' && events.events.indexOf(e) > events.events.indexOf(lost));
    const [next] = aliceExecutions(h.core, () => place(h.core, { account: ALICE_MAIN, side: 'SIDE_BUY', price: 40, qty: 1 }));
    await events.waitFor((e) => e.type === 'execution' && e.execution.id === next);
    expect(events.events.filter((e) => e.type === 'execution')).toHaveLength(1);
    events.stop();
  });
});
