// Test helpers for the matching engine: a manual clock, an engine with one event-contract instrument, and
// short builders for order requests, so each test reads as the rule it checks.
import { MatchingEngine } from '../../../src/sim/matching/index.ts';
import type { EngineResult, Execution, InstrumentDefinition, OrderRequest } from '../../../src/sim/matching/index.ts';

export const SYM = 'EVT-TEST';
export const T0 = 1_700_000_000_000;

export class ManualClock {
  constructor(public t: number = T0) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export function eventContract(overrides: Partial<InstrumentDefinition> = {}): InstrumentDefinition {
  return { symbol: SYM, tickSize: 1, lotSize: 1, priceLimitLow: 1, priceLimitHigh: 99, priceScale: 100, ...overrides };
}

export function setup(overrides: Partial<InstrumentDefinition> = {}): { engine: MatchingEngine; clock: ManualClock } {
  const clock = new ManualClock();
  const engine = new MatchingEngine({ clock });
  engine.addInstrument(eventContract(overrides));
  return { engine, clock };
}

type Extra = Partial<OrderRequest>;

export function buy(qty: number, price: number, extra: Extra = {}): OrderRequest {
  return { symbol: SYM, side: 'SIDE_BUY', type: 'ORDER_TYPE_LIMIT', orderQty: qty, price, account: 'acct-b', ...extra };
}

export function sell(qty: number, price: number, extra: Extra = {}): OrderRequest {
  return { symbol: SYM, side: 'SIDE_SELL', type: 'ORDER_TYPE_LIMIT', orderQty: qty, price, account: 'acct-s', ...extra };
}

/** Execution types of a result, shortened (EXECUTION_TYPE_NEW -> NEW). */
export function types(res: EngineResult): string[] {
  return res.executions.map((e) => e.type.replace('EXECUTION_TYPE_', ''));
}

/** The first execution of a result (the acknowledgement or rejection of a submit). */
export function first(res: EngineResult): Execution {
  const e = res.executions[0];
  if (e === undefined) throw new Error('no execution');
  return e;
}

/** Order id of a submitted order. */
export function idOf(res: EngineResult): string {
  return first(res).order.orderId;
}

/** Executions of one order within a result. */
export function of(res: EngineResult, orderId: string): Execution[] {
  return res.executions.filter((e) => e.order.orderId === orderId);
}
