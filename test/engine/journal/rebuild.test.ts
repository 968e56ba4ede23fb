/**
 * Replaying a journal into the orders in flight: a request without any answer is open (PENDING_NEW); an
 * ack gives it its order id; a terminal execution or settlement finishes it; a send failure finishes it
 * when the exchange refused it (REJECTED), not when the outcome is unknown; a replace gives it a new latest
 * clordId that later lines can name; lines about clordIds never requested are ignored; the counters and
 * runIds continue across a compaction (checkpoint + open lines); a strategy's holding is the last line for
 * its account and symbol, a flat one left out.
 */
import { describe, expect, it } from 'vitest';
import { JournalRebuilder, type JournalEntry, type RecoveredJournal } from '../../../src/engine/journal/index.ts';
import { ack, execution, insert, runStart, terms } from './helpers/entries.ts';

function rebuild(entries: readonly JournalEntry[]): RecoveredJournal {
  const rebuilder = new JournalRebuilder();
  for (const entry of entries) rebuilder.add(entry);
  return rebuilder.result();
}

const openSummary = (recovered: RecoveredJournal) =>
  recovered.open.map((o) => ({
    clordId: o.clordId,
    clordIds: o.clordIds,
    orderId: o.orderId,
    state: o.state,
    cumQty: o.cumQty.toString(),
  }));

describe('journal rebuild', () => {
  it('keeps sent orders without a terminal state, with their order ids and filled quantity', () => {
    const recovered = rebuild([
      runStart('aa'),
      insert('tb-aa-000001'),
      insert('tb-aa-000002'),
      insert('tb-aa-000003'),
      insert('tb-aa-000004'),
      ack('tb-aa-000002', 'O2'),
      ack('tb-aa-000003', 'O3'),
      execution('tb-aa-000003', 'O3', '2', 'PARTIALLY_FILLED'),
      ack('tb-aa-000004', 'O4'),
      execution('tb-aa-000004', 'O4', '5', 'FILLED'),
    ]);
    expect(openSummary(recovered)).toEqual([
      { clordId: 'tb-aa-000001', clordIds: ['tb-aa-000001'], orderId: undefined, state: 'PENDING_NEW', cumQty: '0' },
      { clordId: 'tb-aa-000002', clordIds: ['tb-aa-000002'], orderId: 'O2', state: 'NEW', cumQty: '0' },
      { clordId: 'tb-aa-000003', clordIds: ['tb-aa-000003'], orderId: 'O3', state: 'PARTIALLY_FILLED', cumQty: '2' },
    ]);
    expect(recovered.orders).toBe(4);
    expect(recovered.runIds).toEqual(new Set(['aa']));
    expect(recovered.counters.orders).toBe(4);
  });

  it('finishes an order the exchange refused, keeps one whose send outcome is unknown', () => {
    const recovered = rebuild([
      insert('tb-aa-000001'),
      insert('tb-aa-000002'),
      {
        type: 'sendFailed',
        time: 5,
        clordId: 'tb-aa-000001',
        state: 'REJECTED',
        code: 'GATEWAY_INVALID_ARGUMENT',
        message: 'price off tick',
      },
      { type: 'sendFailed', time: 5, clordId: 'tb-aa-000002', state: 'UNKNOWN', code: 'TRANSPORT_TIMEOUT', message: 'timed out' },
    ]);
    expect(openSummary(recovered)).toEqual([
      { clordId: 'tb-aa-000002', clordIds: ['tb-aa-000002'], orderId: undefined, state: 'UNKNOWN', cumQty: '0' },
    ]);
  });

  it('follows replaces: the latest clordId names the order, and a settlement by it finishes the order', () => {
    const replace = (clordId: string, origClordId: string): JournalEntry => ({
      type: 'request',
      kind: 'replace',
      time: 6,
      clordId,
      origClordId,
      orderId: 'O1',
      symbol: 'RAIN-NYC-2026-12-01',
      price: '0.43',
    });
    const replaced = [
      insert('tb-aa-000001'),
      ack('tb-aa-000001', 'O1'),
      replace('tb-aa-000002', 'tb-aa-000001'),
      replace('tb-aa-000005', 'tb-aa-000002'),
    ];
    expect(openSummary(rebuild(replaced))).toEqual([
      { clordId: 'tb-aa-000001', clordIds: ['tb-aa-000001', 'tb-aa-000005'], orderId: 'O1', state: 'NEW', cumQty: '0' },
    ]);
    expect(rebuild(replaced).counters.orders).toBe(5);
    const settled: JournalEntry = {
      type: 'resolved',
      time: 7,
      clordId: 'tb-aa-000005',
      cause: 'lookup',
      cumQty: '5',
      avgPx: '0.43',
      state: 'FILLED',
    };
    expect(rebuild([...replaced, settled]).open).toEqual([]);
  });

  it('ignores lines about clordIds that were never requested, and never moves a finished order back', () => {
    const recovered = rebuild([
      ack('tb-zz-000009', 'O9'),
      execution('tb-zz-000009', 'O9', '1', 'PARTIALLY_FILLED'),
      insert('tb-aa-000001'),
      execution('tb-aa-000001', 'O1', '5', 'FILLED'),
      execution('tb-aa-000001', 'O1', '3', 'PARTIALLY_FILLED'),
    ]);
    expect(recovered.open).toEqual([]);
    expect(recovered.orders).toBe(1);
  });

  it('continues ids and runIds across a compacted journal (checkpoint + open lines)', () => {
    const recovered = rebuild([
      { type: 'checkpoint', time: 1, runIds: ['aa', 'bb'], counters: { intents: 120, orders: 80, crosses: 3 } },
      {
        type: 'open',
        time: 1,
        clordIds: ['tb-bb-000079', 'tb-bb-000081'],
        orderId: 'O79',
        terms: terms({ side: 'SELL' }),
        cumQty: '1',
        avgPx: '0.44',
        state: 'PARTIALLY_FILLED',
        intentId: 'i-bb-000119',
        label: 'quote',
      },
      runStart('cc'),
      {
        type: 'intent',
        time: 2,
        intentId: 'i-cc-000121',
        kind: 'place',
        strategy: 's',
        symbol: 'RAIN-NYC-2026-12-01',
        clordId: 'tb-cc-000082',
        label: 'quote',
      },
      insert('tb-cc-000082'),
    ]);
    expect(recovered.runIds).toEqual(new Set(['aa', 'bb', 'cc']));
    expect(recovered.counters).toEqual({ intents: 121, orders: 82, crosses: 3 });
    expect(openSummary(recovered)).toEqual([
      { clordId: 'tb-bb-000079', clordIds: ['tb-bb-000079', 'tb-bb-000081'], orderId: 'O79', state: 'PARTIALLY_FILLED', cumQty: '1' },
      { clordId: 'tb-cc-000082', clordIds: ['tb-cc-000082'], orderId: undefined, state: 'PENDING_NEW', cumQty: '0' },
    ]);
    expect(recovered.open[1]).toMatchObject({ intentId: 'i-cc-000121', label: 'quote' });
    expect(recovered.open[0]?.terms.side).toBe('SELL');
  });

  it("keeps each strategy's last holding per account and symbol; flat ones are left out", () => {
    const holding = (strategy: string, symbol: string, qty: string, cost: string): JournalEntry => ({
      type: 'holding',
      time: 1,
      strategy,
      account: 'firms/f/accounts/a',
      symbol,
      qty,
      cost,
    });
    const recovered = rebuild([
      runStart('aa'),
      holding('mm-a', 'EVT-A', '1', '0.4'),
      holding('mm-b', 'EVT-A', '-2', '-0.9'),
      holding('mm-a', 'EVT-A', '3', '1.3'),
      holding('mm-a', 'EVT-B', '1', '0.5'),
      holding('mm-a', 'EVT-B', '0', '0'),
    ]);
    const summary = recovered.holdings.map((h) => [h.strategy, h.symbol, h.qty.toString(), h.cost.toString()]);
    expect(summary).toEqual([
      ['mm-a', 'EVT-A', '3', '1.3'],
      ['mm-b', 'EVT-A', '-2', '-0.9'],
    ]);
  });
});
