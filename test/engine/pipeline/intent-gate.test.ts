/**
 * The intent gate: an approved intent is submitted; a refused one is counted by code and handed back as a
 * `refused` update naming the returned id and the symbol, with nothing submitted; orders that never rest
 * (IOC/FOK places, cross legs) are noted until they end; an engine cancel is approved by risk and submitted.
 */
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../../src/engine/clock.ts';
import type { PlaceIntent } from '../../../src/engine/intents.ts';
import { OrderTracker } from '../../../src/engine/orders/index.ts';
import { IntentGate, engineCancelIntent } from '../../../src/engine/pipeline/intent-gate.ts';
import { Portfolio } from '../../../src/engine/portfolio/index.ts';
import { portfolioPort } from '../../../src/engine/portfolio-port.ts';
import { parseRiskConfig, RiskManager, type Approved } from '../../../src/engine/risk/index.ts';
import { engineRiskContext } from '../../../src/engine/risk-context.ts';
import { RunCounters } from '../../../src/engine/run-counters.ts';
import { BookStore } from '../../../src/engine/books.ts';
import type { RefusedView } from '../../../src/engine/strategy/views.ts';
import { silentLogger } from '../../../src/logging/logger.ts';
import { testInstrument } from '../helpers/instrument.ts';
import { ACCOUNT, SYMBOL, T0, d } from '../orders/fixtures.ts';

function gate() {
  const clock = new VirtualClock(T0);
  const risk = new RiskManager(parseRiskConfig({}), { clock });
  const context = engineRiskContext({
    now: () => clock.now(),
    defaultAccount: ACCOUNT,
    accounts: [ACCOUNT],
    instruments: new Map([[SYMBOL, testInstrument(SYMBOL)]]),
    eventGroups: new Map(),
    tracker: new OrderTracker({ clock }),
    portfolio: portfolioPort(new Portfolio({ clock })),
    books: new BookStore(),
    risk: () => risk,
    canCross: true,
  });
  const submitted: Approved[] = [];
  const refused: RefusedView[] = [];
  const counters = new RunCounters();
  const g = new IntentGate({
    risk,
    context,
    log: silentLogger(),
    counters,
    submit: (approved) => submitted.push(approved),
    symbolOf: () => undefined,
    refused: (view) => refused.push(view),
  });
  return { g, submitted, refused, counters };
}

let n = 0;
function place(overrides: Partial<PlaceIntent> = {}): PlaceIntent {
  n += 1;
  return {
    kind: 'place',
    intentId: `i${n}`,
    strategy: 'test',
    time: T0,
    clordId: `c${n}`,
    symbol: SYMBOL,
    side: 'BUY',
    qty: d(1),
    price: d('0.50'),
    timeInForce: 'GOOD_TILL_CANCEL',
    postOnly: false,
    account: undefined,
    selfMatchPrevention: undefined,
    label: undefined,
    ...overrides,
  };
}

describe('IntentGate', () => {
  it('an approved intent is submitted and counted', () => {
    const t = gate();
    const intent = place();
    t.g.handle(intent);
    expect(t.submitted.map((a) => a.intentId)).toEqual([intent.intentId]);
    expect(t.refused).toEqual([]);
    expect(t.counters.intents).toBe(1);
  });

  it('a refused intent is counted by code and handed back with its id and symbol; nothing is submitted', () => {
    const t = gate();
    const intent = place({ symbol: 'NOT-TRADED' });
    t.g.handle(intent);
    expect(t.submitted).toEqual([]);
    expect(t.refused.map((r) => ({ type: r.type, id: r.id, symbol: r.symbol, code: r.code }))).toEqual([
      { type: 'refused', id: intent.clordId, symbol: 'NOT-TRADED', code: 'RISK_UNKNOWN_SYMBOL' },
    ]);
    expect(t.counters.refusals).toEqual({ RISK_UNKNOWN_SYMBOL: 1 });
  });

  it('an IOC or FOK place is noted as never resting until it ends; a GTC one is not', () => {
    const t = gate();
    const ioc = place({ timeInForce: 'IMMEDIATE_OR_CANCEL' });
    const fok = place({ timeInForce: 'FILL_OR_KILL' });
    const gtc = place();
    for (const intent of [ioc, fok, gtc]) t.g.handle(intent);
    expect([ioc, fok, gtc].map((i) => t.g.isImmediate(i.clordId))).toEqual([true, true, false]);
    expect(t.g.immediateOpen).toBe(2);
    t.g.finished([ioc.clordId]);
    expect(t.g.isImmediate(ioc.clordId)).toBe(false);
    expect(t.g.immediateOpen).toBe(1);
  });

  it("an engine cancel is approved by risk and submitted as the reconciliation's", () => {
    const t = gate();
    t.g.cancelByEngine(engineCancelIntent('c7', 'i-e1', T0));
    expect(t.submitted).toEqual([{ kind: 'cancel', clordId: 'c7', intentId: 'i-e1', strategy: 'reconciliation', time: T0 }]);
    expect(t.counters.intents).toBe(0);
  });
});
