// Test helpers for the risk layer: a plain-object RiskContext, intent builders and a manager factory.
import { expect } from 'vitest';
import { parseDecimal, type Decimal } from '../../../src/domain/decimal.ts';
import type { CancelAllIntent, CancelIntent, CrossIntent, IntentSide, PlaceIntent, ReplaceIntent } from '../../../src/engine/intents.ts';
import {
  RiskManager,
  parseRiskConfig,
  type Approved,
  type ReferencePriceSource,
  type Refused,
  type RiskConfigInput,
  type RiskContext,
  type RiskInstrument,
  type RiskOpenOrder,
  type RiskPosition,
  type TradingState,
  type Verdict,
} from '../../../src/engine/risk/index.ts';

export const d = (text: string | number): Decimal => parseDecimal(typeof text === 'number' ? String(text) : text);

export const SYM = 'EVT-A';
export const ACCOUNT = 'firms/f/accounts/main';
export const OTHER_ACCOUNT = 'firms/f/accounts/second';

export function instrument(overrides: Partial<RiskInstrument> = {}): RiskInstrument {
  return {
    symbol: SYM,
    tickSize: d('0.01'),
    lowPriceLimit: d('0.01'),
    highPriceLimit: d('0.99'),
    minimumQty: d(1),
    qtyIncrement: d(1),
    eventGroup: 'EVT',
    ...overrides,
  };
}

export interface ContextSpec {
  instruments?: readonly RiskInstrument[];
  positions?: readonly RiskPosition[];
  openOrders?: readonly RiskOpenOrder[];
  mid?: Record<string, Decimal>;
  last?: Record<string, Decimal>;
  pnl?: Decimal;
  state?: TradingState;
  accounts?: readonly string[];
  now?: number;
}

export function context(spec: ContextSpec = {}): RiskContext {
  const instruments = new Map((spec.instruments ?? [instrument()]).map((i) => [i.symbol, i]));
  const prices: Record<ReferencePriceSource, Record<string, Decimal>> = { mid: spec.mid ?? {}, last: spec.last ?? {} };
  return {
    now: () => spec.now ?? 0,
    defaultAccount: ACCOUNT,
    accounts: () => spec.accounts ?? [ACCOUNT, OTHER_ACCOUNT],
    instrument: (symbol) => instruments.get(symbol),
    referencePrice: (symbol, source) => prices[source][symbol],
    positions: () => spec.positions ?? [],
    openOrders: () => spec.openOrders ?? [],
    dailyPnl: () => spec.pnl ?? d(0),
    tradingState: () => spec.state ?? 'active',
  };
}

export const position = (qty: string | number, symbol = SYM, account = ACCOUNT): RiskPosition => ({ symbol, account, qty: d(qty) });

export function openOrder(
  clordId: string,
  side: IntentSide,
  leavesQty: string | number,
  price: string | undefined,
  extra: { symbol?: string; account?: string } = {},
): RiskOpenOrder {
  return {
    clordId,
    side,
    leavesQty: d(leavesQty),
    price: price === undefined ? undefined : d(price),
    symbol: extra.symbol ?? SYM,
    account: extra.account ?? ACCOUNT,
  };
}

let counter = 0;
const base = (time: number) => ({ intentId: `i-${++counter}`, strategy: 'test', time });

export function place(
  side: IntentSide,
  qty: string | number,
  price: string | undefined,
  extra: Partial<Omit<PlaceIntent, 'kind' | 'side' | 'qty' | 'price'>> = {},
): PlaceIntent {
  return {
    kind: 'place',
    ...base(extra.time ?? 0),
    clordId: `c-${counter}`,
    symbol: SYM,
    side,
    qty: d(qty),
    price: price === undefined ? undefined : d(price),
    timeInForce: 'DAY',
    postOnly: false,
    account: undefined,
    selfMatchPrevention: undefined,
    label: undefined,
    ...extra,
  };
}

export const cancel = (clordId: string, time = 0): CancelIntent => ({ kind: 'cancel', ...base(time), clordId });
export const cancelAll = (symbol?: string, time = 0): CancelAllIntent => ({ kind: 'cancelAll', ...base(time), symbol });
export const replace = (clordId: string, change: { price?: string; qty?: string | number }, time = 0): ReplaceIntent => ({
  kind: 'replace',
  ...base(time),
  clordId,
  newClordId: `c-${counter}`,
  price: change.price === undefined ? undefined : d(change.price),
  qty: change.qty === undefined ? undefined : d(change.qty),
});
export const cross = (qty: string | number, price: string, buyAccount = ACCOUNT, sellAccount = OTHER_ACCOUNT, time = 0): CrossIntent => ({
  kind: 'cross',
  ...base(time),
  crossId: `x-${counter}`,
  symbol: SYM,
  qty: d(qty),
  price: d(price),
  buy: { clordId: `c-${counter}-b`, account: buyAccount, side: 'BUY' },
  sell: { clordId: `c-${counter}-s`, account: sellAccount, side: 'SELL' },
  allOrNone: false,
});

export const fixedClock = (time = 0) => ({ now: () => time });

export function manager(config: RiskConfigInput = {}): RiskManager {
  return new RiskManager(parseRiskConfig(config), { clock: fixedClock() });
}

/** The single refusal of a verdict list (fails the test otherwise). */
export function refusedOf(verdicts: readonly Verdict[]): Refused {
  expect(verdicts).toHaveLength(1);
  const [verdict] = verdicts;
  if (verdict === undefined || verdict.kind !== 'refused')
    throw new Error(`expected a refusal, got ${JSON.stringify(verdicts.map((v) => v.kind))}`);
  return verdict;
}

/** The approved intents, in sending order (fails the test on a refusal). */
export function approvedOf(verdicts: readonly Verdict[]): Approved[] {
  const refused = verdicts.find((v) => v.kind === 'refused');
  if (refused !== undefined && refused.kind === 'refused') throw new Error(`expected approval, got ${refused.code}: ${refused.message}`);
  return verdicts.flatMap((v) => (v.kind === 'approved' ? [v.intent] : []));
}
