/**
 * The engine's risk context over the order tracker, with the risk manager: an order with a replace in flight
 * counts the worse of its old and new terms (the larger leaves for position limits, both prices for
 * self-match prevention) and answers to the client order id the replace gives it; cross legs must trade the
 * bot's own accounts.
 */
import { describe, expect, it } from 'vitest';
import { parseDecimal as d } from '../../src/domain/decimal.ts';
import type { Instrument } from '../../src/domain/index.ts';
import { BookStore } from '../../src/engine/books.ts';
import { VirtualClock } from '../../src/engine/clock.ts';
import type { Intent } from '../../src/engine/intents.ts';
import { OrderTracker } from '../../src/engine/orders/index.ts';
import type { PortfolioPort } from '../../src/engine/portfolio-port.ts';
import { engineRiskContext } from '../../src/engine/risk-context.ts';
import { parseRiskConfig, RiskManager, type RiskConfigInput } from '../../src/engine/risk/index.ts';
import { testInstrument } from './helpers/instrument.ts';

const SYMBOL = 'EVT-A';
const ACCOUNT = 'firms/f/accounts/main';

function world(config: RiskConfigInput) {
  const clock = new VirtualClock(0);
  const tracker = new OrderTracker({ clock });
  const risk = new RiskManager(parseRiskConfig(config), { clock });
  const flat: Pick<PortfolioPort, 'positions' | 'dailyPnl'> = { positions: () => [], dailyPnl: () => d('0') };
  const context = engineRiskContext({
    now: () => clock.now(),
    defaultAccount: ACCOUNT,
    accounts: [ACCOUNT],
    instruments: new Map<string, Instrument>([[SYMBOL, testInstrument(SYMBOL)]]),
    eventGroups: new Map(),
    tracker,
    portfolio: flat as PortfolioPort,
    books: new BookStore(),
    risk: () => risk,
  });
  let n = 0;
  const base = () => ({ intentId: `i${++n}`, strategy: 's', time: n });
  const verdict = (intent: Intent) => risk.check(intent, context).map((v) => (v.kind === 'approved' ? 'approved' : v.code));
  return {
    place(side: 'BUY' | 'SELL', qty: string, price: string): { clordId: string; verdict: string[] } {
      const clordId = `c${n + 1}`;
      const intent: Intent = {
        ...base(),
        kind: 'place',
        clordId,
        symbol: SYMBOL,
        side,
        qty: d(qty),
        price: d(price),
        timeInForce: 'DAY',
        postOnly: false,
        account: undefined,
        selfMatchPrevention: undefined,
        label: undefined,
      };
      const result = verdict(intent);
      if (result.every((v) => v === 'approved')) {
        tracker.submitted({
          clordId,
          account: ACCOUNT,
          symbol: SYMBOL,
          side,
          type: 'LIMIT',
          timeInForce: 'DAY',
          qty: d(qty),
          price: d(price),
          postOnly: false,
          selfMatchPreventionInstruction: undefined,
        });
        tracker.acknowledged(clordId, `o-${clordId}`);
      }
      return { clordId, verdict: result };
    },
    replace(clordId: string, change: { qty?: string; price?: string }): { clordId: string; verdict: string[] } {
      const newClordId = `c${n + 1}`;
      const price = change.price === undefined ? undefined : d(change.price);
      const qty = change.qty === undefined ? undefined : d(change.qty);
      const result = verdict({ ...base(), kind: 'replace', clordId, newClordId, price, qty });
      if (result.every((v) => v === 'approved')) tracker.replaceRequested(clordId, newClordId, price, qty);
      return { clordId: newClordId, verdict: result };
    },
    cancel: (clordId: string) => verdict({ ...base(), kind: 'cancel', clordId }),
    cross: (buyAccount: string, sellAccount: string) =>
      verdict({
        ...base(),
        kind: 'cross',
        crossId: `x${n}`,
        symbol: SYMBOL,
        qty: d('1'),
        price: d('0.5'),
        buy: { clordId: `b${n}`, account: buyAccount, side: 'BUY' },
        sell: { clordId: `s${n}`, account: sellAccount, side: 'SELL' },
        allOrNone: true,
      }),
  };
}

describe('engine risk context', () => {
  it('counts the larger leaves of an order whose quantity a replace in flight raises', () => {
    const w = world({ maxPosition: '10' });
    const first = w.place('BUY', '5', '0.50');
    expect(w.replace(first.clordId, { qty: '10' }).verdict).toEqual(['approved']);
    // worst case: the replace goes through (10) and this one fills too: 15 > 10
    expect(w.place('BUY', '5', '0.50').verdict).toEqual(['RISK_MAX_POSITION']);
    expect(w.place('SELL', '5', '0.70').verdict).toEqual(['approved']);
  });

  it('prevents a self-match with an order a replace in flight moves across the book', () => {
    const w = world({ selfMatch: { action: 'refuse', scope: 'bot' } });
    const bid = w.place('BUY', '5', '0.40');
    w.replace(bid.clordId, { price: '0.60' });
    expect(w.place('SELL', '5', '0.55').verdict).toEqual(['RISK_SELF_MATCH']);
    // at its old price too, until the exchange answers
    expect(w.place('SELL', '5', '0.40').verdict).toEqual(['RISK_SELF_MATCH']);
    expect(w.place('SELL', '5', '0.65').verdict).toEqual(['approved']);
  });

  it('answers to the client order id a replace in flight gives the order (what the strategy holds)', () => {
    const w = world({});
    const bid = w.place('BUY', '5', '0.40');
    const replaced = w.replace(bid.clordId, { price: '0.45' });
    expect(w.cancel(replaced.clordId)).toEqual(['approved']);
    expect(w.replace(replaced.clordId, { price: '0.46' }).verdict).toEqual(['approved']);
  });

  it('keeps the changes of a replace in flight when a later one, by the id it gives, changes something else', () => {
    const w = world({ maxPosition: '10' });
    const first = w.place('BUY', '5', '0.50');
    const raised = w.replace(first.clordId, { qty: '10' });
    expect(w.replace(raised.clordId, { price: '0.49' }).verdict).toEqual(['approved']);
    // the exchange applies both: 10 at 0.49; a new 5 would make 15
    expect(w.place('BUY', '5', '0.50').verdict).toEqual(['RISK_MAX_POSITION']);
  });

  it("refuses a cross with a leg in an account that is not the bot's", () => {
    const w = world({});
    expect(w.cross(ACCOUNT, 'firms/other/accounts/x')).toEqual(['RISK_INVALID_INTENT']);
    expect(w.cross('firms/other/accounts/x', 'firms/other/accounts/y')).toEqual(['RISK_INVALID_INTENT']);
  });
});
