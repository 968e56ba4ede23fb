// Property tests: random configs, random contexts and random sequences of intents (times never going back).
// Approved intents are applied to a model of the bot's open orders, and after every check an independent
// oracle asserts that:
//  - every intent gets exactly one outcome: one Refused carrying the intent, or approvals ending with the
//    intent (self-match cancels only before a place/replace), so approved + refused = all intents;
//  - no approved order breaches a configured limit: qty, notional, worst-case position incl. open orders,
//    event-group gross exposure (never raised above the limit), open orders count, message rate, price band,
//    price limits, tick, minimum qty and lot;
//  - no approved order would trade against the bot's own resting orders (cancel-first removes them first);
//  - halted approves no order, reducing only orders that reduce, and a daily loss breach only reducing ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Decimal, ZERO } from '../../../src/domain/decimal.ts';
import type { Intent, IntentSide } from '../../../src/engine/intents.ts';
import {
  RiskManager,
  parseRiskConfig,
  stricterState,
  type RiskConfig,
  type RiskConfigInput,
  type RiskContext,
  type RiskInstrument,
  type RiskOpenOrder,
  type RiskPosition,
  type TradingState,
  type Verdict,
} from '../../../src/engine/risk/index.ts';
import { d, fixedClock } from './helpers.ts';

const ACCOUNTS = ['acc-1', 'acc-2'];
const SYMBOLS = ['A1', 'A2', 'B1'];
const INSTRUMENTS: readonly RiskInstrument[] = [
  {
    symbol: 'A1',
    tickSize: d('0.01'),
    lowPriceLimit: d('0.01'),
    highPriceLimit: d('0.99'),
    minimumQty: d(1),
    qtyIncrement: d(1),
    eventGroup: 'E',
  },
  {
    symbol: 'A2',
    tickSize: d('0.05'),
    lowPriceLimit: d('0.05'),
    highPriceLimit: d('0.95'),
    minimumQty: d(2),
    qtyIncrement: d(1),
    eventGroup: 'E',
  },
  {
    symbol: 'B1',
    tickSize: d('0.01'),
    lowPriceLimit: d('0.01'),
    highPriceLimit: d('0.99'),
    minimumQty: d(1),
    qtyIncrement: d('0.5'),
    eventGroup: undefined,
  },
];
const instrumentOf = (symbol: string) => INSTRUMENTS.find((i) => i.symbol === symbol);

// ---------- arbitraries ----------

const priceArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 19 }).map((k) => d(k).div(20)) },
  { weight: 3, arbitrary: fc.integer({ min: 2, max: 98 }).map((k) => d(k).div(100)) },
  { weight: 1, arbitrary: fc.integer({ min: -2, max: 210 }).map((k) => d(k).div(200)) },
);
const qtyArb = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 12 }).map((k) => d(k)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 50 }).map((k) => d(k).div(2)) },
);
const sideArb = fc.constantFrom<IntentSide>('BUY', 'SELL');
const symbolArb = fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...SYMBOLS) }, { weight: 1, arbitrary: fc.constant('ZZ') });

const configArb: fc.Arbitrary<RiskConfigInput> = fc.record(
  {
    maxOrderQty: fc.integer({ min: 3, max: 15 }).map(String),
    maxOrderNotional: fc.integer({ min: 2, max: 10 }).map(String),
    maxPosition: fc.integer({ min: 0, max: 30 }).map(String),
    maxEventPosition: fc.integer({ min: 0, max: 60 }).map(String),
    maxOpenOrders: fc.integer({ min: 1, max: 12 }),
    maxMessagesPerSecond: fc.integer({ min: 1, max: 12 }),
    priceBand: fc.oneof(
      fc.record({
        reference: fc.constantFrom('mid' as const, 'last' as const),
        absolute: fc.constant('0.1'),
        whenNoReference: fc.constantFrom('refuse' as const, 'allow' as const),
      }),
      fc.record({ reference: fc.constantFrom('mid' as const, 'last' as const), ticks: fc.integer({ min: 1, max: 20 }) }),
      fc.record({
        percent: fc.integer({ min: 1, max: 50 }).map(String),
        whenNoReference: fc.constantFrom('refuse' as const, 'allow' as const),
      }),
    ),
    maxDailyLoss: fc.integer({ min: 10, max: 100 }).map(String),
    onDailyLoss: fc.constantFrom('reducing' as const, 'halted' as const),
    selfMatch: fc.record(
      {
        action: fc.constantFrom('refuse' as const, 'cancelResting' as const, 'off' as const),
        scope: fc.constantFrom('account' as const, 'bot' as const),
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
);

interface World {
  positions: RiskPosition[];
  orders: RiskOpenOrder[];
  mid: Map<string, Decimal>;
  last: Map<string, Decimal>;
  pnl: Decimal;
  state: TradingState;
}

const worldArb: fc.Arbitrary<World> = fc.record({
  positions: fc.array(
    fc.record({
      symbol: fc.constantFrom(...SYMBOLS),
      account: fc.constantFrom(...ACCOUNTS),
      qty: fc.integer({ min: -20, max: 20 }).map((k) => d(k)),
    }),
    { maxLength: 6 },
  ),
  orders: fc
    .array(
      fc.record({
        symbol: fc.constantFrom(...SYMBOLS),
        account: fc.constantFrom(...ACCOUNTS),
        side: sideArb,
        price: fc.option(priceArb, { nil: undefined, freq: 10 }),
        leavesQty: fc.integer({ min: 1, max: 8 }).map((k) => d(k)),
      }),
      { maxLength: 8 },
    )
    .map((orders) => orders.map((o, i) => ({ ...o, clordId: `init-${i}` }))),
  mid: fc.dictionary(fc.constantFrom(...SYMBOLS), priceArb).map((r) => new Map(Object.entries(r))),
  last: fc.dictionary(fc.constantFrom(...SYMBOLS), priceArb).map((r) => new Map(Object.entries(r))),
  pnl: fc
    .oneof({ weight: 4, arbitrary: fc.integer({ min: -5, max: 50 }) }, { weight: 1, arbitrary: fc.integer({ min: -150, max: -100 }) })
    .map((k) => d(k)),
  state: fc.oneof(
    { weight: 6, arbitrary: fc.constant<TradingState>('active') },
    { weight: 1, arbitrary: fc.constantFrom<TradingState>('reducing', 'halted') },
  ),
});

type Step =
  | { kind: 'place'; symbol: string; side: IntentSide; qty: Decimal; price: Decimal | undefined; account: number }
  | { kind: 'cancel'; pick: number }
  | { kind: 'cancelAll'; symbol: string | undefined }
  | { kind: 'replace'; pick: number; price: Decimal | undefined; qty: Decimal | undefined }
  | { kind: 'cross'; symbol: string; qty: Decimal; price: Decimal; flip: boolean }
  | { kind: 'operator'; state: TradingState };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 10,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      symbol: symbolArb,
      side: sideArb,
      qty: qtyArb,
      price: fc.option(priceArb, { nil: undefined, freq: 8 }),
      account: fc.nat(2),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(20) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), symbol: fc.option(fc.constantFrom(...SYMBOLS), { nil: undefined }) }),
  },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('replace' as const),
      pick: fc.nat(20),
      price: fc.option(priceArb, { nil: undefined }),
      qty: fc.option(qtyArb, { nil: undefined }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('cross' as const), symbol: symbolArb, qty: qtyArb, price: priceArb, flip: fc.boolean() }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('operator' as const), state: fc.constantFrom<TradingState>('active', 'reducing', 'halted') }),
  },
);
const stepsArb = fc.array(fc.tuple(stepArb, fc.integer({ min: 0, max: 250 })), { minLength: 1, maxLength: 40 });

// ---------- the model context ----------

function contextOf(world: World): RiskContext {
  return {
    now: () => 0,
    defaultAccount: 'acc-1',
    accounts: () => ACCOUNTS,
    instrument: instrumentOf,
    referencePrice: (symbol, source) => (source === 'mid' ? world.mid : world.last).get(symbol),
    positions: () => world.positions,
    openOrders: () => [...world.orders],
    dailyPnl: () => world.pnl,
    tradingState: () => world.state,
  };
}

let ids = 0;
function intentOf(step: Step, time: number, world: World): Intent | undefined {
  const base = { intentId: `p-${++ids}`, strategy: 'prop', time };
  const pick = (n: number) => world.orders[n % Math.max(1, world.orders.length)]?.clordId ?? 'unknown';
  switch (step.kind) {
    case 'place':
      return {
        ...base,
        kind: 'place',
        clordId: `c-${ids}`,
        symbol: step.symbol,
        side: step.side,
        qty: step.qty,
        price: step.price,
        timeInForce: 'DAY',
        postOnly: false,
        account: step.account === 2 ? undefined : ACCOUNTS[step.account],
        selfMatchPrevention: undefined,
        label: undefined,
      };
    case 'cancel':
      return { ...base, kind: 'cancel', clordId: step.pick === 20 ? 'unknown' : pick(step.pick) };
    case 'cancelAll':
      return { ...base, kind: 'cancelAll', symbol: step.symbol };
    case 'replace':
      return { ...base, kind: 'replace', clordId: pick(step.pick), newClordId: `c-${ids}`, price: step.price, qty: step.qty };
    case 'cross': {
      const [buy, sell] = step.flip ? [ACCOUNTS[1] ?? '', ACCOUNTS[0] ?? ''] : [ACCOUNTS[0] ?? '', ACCOUNTS[1] ?? ''];
      return {
        ...base,
        kind: 'cross',
        crossId: `x-${ids}`,
        symbol: step.symbol,
        qty: step.qty,
        price: step.price,
        allOrNone: false,
        buy: { clordId: `c-${ids}-b`, account: buy, side: 'BUY' },
        sell: { clordId: `c-${ids}-s`, account: sell, side: 'SELL' },
      };
    }
    case 'operator':
      return undefined;
  }
}

function apply(world: World, intent: Intent): void {
  switch (intent.kind) {
    case 'cancel':
      world.orders = world.orders.filter((o) => o.clordId !== intent.clordId);
      return;
    case 'cancelAll':
      world.orders = world.orders.filter((o) => intent.symbol !== undefined && o.symbol !== intent.symbol);
      return;
    case 'place':
      world.orders.push({
        clordId: intent.clordId,
        symbol: intent.symbol,
        side: intent.side,
        price: intent.price,
        leavesQty: intent.qty,
        account: intent.account ?? 'acc-1',
      });
      return;
    case 'replace':
      world.orders = world.orders.map((o) =>
        o.clordId === intent.clordId
          ? { ...o, clordId: intent.newClordId, price: intent.price ?? o.price, leavesQty: intent.qty ?? o.leavesQty }
          : o,
      );
      return;
    case 'cross':
      return;
  }
}

// ---------- the oracle ----------

interface Order {
  symbol: string;
  side: IntentSide;
  qty: Decimal;
  price: Decimal | undefined;
  account: string;
  replaced: RiskOpenOrder | undefined;
  rests: boolean;
  qtyChanged: boolean;
}

/** The orders an approved intent puts on the market, read from the world before it was applied. */
function ordersOf(intent: Intent, world: World): Order[] {
  if (intent.kind === 'place') {
    return [
      {
        symbol: intent.symbol,
        side: intent.side,
        qty: intent.qty,
        price: intent.price,
        account: intent.account ?? 'acc-1',
        replaced: undefined,
        rests: true,
        qtyChanged: true,
      },
    ];
  }
  if (intent.kind === 'replace') {
    const old = world.orders.find((o) => o.clordId === intent.clordId);
    expect(old, 'an approved replace names an open order').toBeDefined();
    if (old === undefined) return [];
    return [
      {
        symbol: old.symbol,
        side: old.side,
        qty: intent.qty ?? old.leavesQty,
        price: intent.price ?? old.price,
        account: old.account,
        replaced: old,
        rests: true,
        qtyChanged: intent.qty !== undefined,
      },
    ];
  }
  if (intent.kind === 'cross') {
    const leg = (account: string, side: IntentSide): Order => ({
      symbol: intent.symbol,
      side,
      qty: intent.qty,
      price: intent.price,
      account,
      replaced: undefined,
      rests: false,
      qtyChanged: true,
    });
    return [leg(intent.buy.account, 'BUY'), leg(intent.sell.account, 'SELL')];
  }
  return [];
}

const sum = (values: Decimal[]): Decimal => values.reduce((a, b) => a.plus(b), ZERO);
const positionOf = (world: World, symbol: string, account: string) =>
  sum(world.positions.filter((p) => p.symbol === symbol && p.account === account).map((p) => p.qty));
const sameSide = (world: World, o: Order, side: IntentSide, symbol = o.symbol) =>
  sum(
    world.orders
      .filter((r) => r.symbol === symbol && r.account === o.account && r.side === side && r !== o.replaced)
      .map((r) => r.leavesQty),
  );

function grossOf(world: World, o: Order, group: string | undefined, withOrder: boolean): Decimal {
  const symbols = group === undefined ? [o.symbol] : INSTRUMENTS.filter((i) => i.eventGroup === group).map((i) => i.symbol);
  return sum(
    symbols.map((s) => {
      const p = positionOf(world, s, o.account);
      const extra = withOrder && s === o.symbol ? o.qty : ZERO;
      const buys = sameSide(world, withOrder ? o : { ...o, replaced: undefined }, 'BUY', s).plus(o.side === 'BUY' ? extra : ZERO);
      const sells = sameSide(world, withOrder ? o : { ...o, replaced: undefined }, 'SELL', s).plus(o.side === 'SELL' ? extra : ZERO);
      return Decimal.max(p.plus(buys), sells.minus(p), ZERO);
    }),
  );
}

function reduces(world: World, o: Order): boolean {
  const p = positionOf(world, o.symbol, o.account);
  const worst = o.side === 'BUY' ? p.plus(sameSide(world, o, 'BUY')).plus(o.qty) : p.minus(sameSide(world, o, 'SELL')).minus(o.qty);
  return o.side === 'BUY' ? p.lt(0) && worst.lte(0) : p.gt(0) && worst.gte(0);
}

function crossesOwn(o: Order, r: RiskOpenOrder, scope: 'account' | 'bot'): boolean {
  if (!o.rests || r.symbol !== o.symbol || r.side === o.side || (scope === 'account' && r.account !== o.account)) return false;
  if (o.price === undefined || r.price === undefined) return true;
  return o.side === 'BUY' ? o.price.gte(r.price) : o.price.lte(r.price);
}

interface Tally {
  intents: number;
  approved: number;
  refused: number;
  approvedOrders: number;
}

function checkOrder(o: Order, intent: Intent, cancelled: readonly string[], world: World, config: RiskConfig, state: TradingState): void {
  const inst = instrumentOf(o.symbol);
  expect(inst, 'approved orders are on known symbols').toBeDefined();
  if (inst === undefined) return;
  const after = { ...world, orders: world.orders.filter((r) => !cancelled.includes(r.clordId)) };
  expect(state, 'halted approves no order').not.toBe('halted');
  if (state === 'reducing' || (config.maxDailyLoss !== undefined && world.pnl.lte(config.maxDailyLoss.negated()))) {
    const old = o.replaced;
    const windsDown =
      old !== undefined &&
      o.qty.lte(old.leavesQty) &&
      (o.price === undefined || old.price === undefined
        ? o.price === old.price
        : o.side === 'BUY'
          ? o.price.lte(old.price)
          : o.price.gte(old.price));
    expect(
      reduces(world, o) || windsDown,
      'reducing / daily loss: only reducing orders, or replaces that neither raise their quantity nor move towards the other side',
    ).toBe(true);
  }
  if (o.qtyChanged) {
    expect(o.qty.gte(inst.minimumQty) && o.qty.mod(inst.qtyIncrement).isZero(), 'minimum qty and lot').toBe(true);
  }
  if (o.price !== undefined) {
    expect(o.price.mod(inst.tickSize).isZero(), 'tick').toBe(true);
    expect(o.price.gte(inst.lowPriceLimit) && o.price.lte(inst.highPriceLimit), 'price limits').toBe(true);
  }
  if (config.maxOrderQty !== undefined) expect(o.qty.lte(config.maxOrderQty), 'maxOrderQty').toBe(true);
  if (config.maxOrderNotional !== undefined)
    expect((o.price ?? inst.highPriceLimit).times(o.qty).lte(config.maxOrderNotional), 'maxOrderNotional').toBe(true);
  if (config.maxPosition !== undefined) {
    const p = positionOf(world, o.symbol, o.account);
    const worst = o.side === 'BUY' ? p.plus(sameSide(world, o, 'BUY')).plus(o.qty) : p.minus(sameSide(world, o, 'SELL')).minus(o.qty);
    expect(
      o.side === 'BUY' ? worst.lte(config.maxPosition) : worst.gte(config.maxPosition.negated()),
      'maxPosition incl. open orders',
    ).toBe(true);
  }
  if (config.maxEventPosition !== undefined) {
    const before = grossOf(world, o, inst.eventGroup, false);
    const afterGross = grossOf(world, o, inst.eventGroup, true);
    expect(afterGross.lte(config.maxEventPosition) || afterGross.lte(before), 'maxEventPosition never raised above the limit').toBe(true);
  }
  if (config.maxOpenOrders !== undefined && intent.kind === 'place') {
    expect(after.orders.length + 1 <= config.maxOpenOrders, 'maxOpenOrders').toBe(true);
  }
  const band = config.priceBand;
  if (band !== undefined) {
    expect(o.price, 'no market orders under a band').toBeDefined();
    const ref = (band.reference === 'mid' ? world.mid : world.last).get(o.symbol);
    if (ref === undefined) expect(band.whenNoReference).toBe('allow');
    else if (o.price !== undefined) {
      const half = band.absolute ?? (band.ticks !== undefined ? inst.tickSize.times(band.ticks) : ref.times(band.percent ?? 0).div(100));
      expect(o.price.minus(ref).abs().lte(half), 'price band').toBe(true);
    }
  }
  const { action, scope } = config.selfMatch;
  if (action !== 'off') {
    const conflicts = after.orders.filter((r) => crossesOwn(o, r, scope));
    expect(conflicts, 'no self-match left after cancels').toEqual([]);
  }
}

function run(configInput: RiskConfigInput, initial: World, steps: readonly (readonly [Step, number])[], tally: Tally): void {
  const config = parseRiskConfig(configInput);
  const risk = new RiskManager(config, { clock: fixedClock() });
  const world: World = { ...initial, orders: [...initial.orders] };
  const sent: number[] = [];
  let time = 0;
  for (const [step, dt] of steps) {
    time += dt;
    if (step.kind === 'operator') {
      risk.tradingState.setState(step.state, 'property');
      continue;
    }
    const intent = intentOf(step, time, world);
    if (intent === undefined) continue;
    const verdicts: Verdict[] = risk.check(intent, contextOf(world));
    tally.intents += 1;
    const refused = verdicts.filter((v) => v.kind === 'refused');
    if (refused.length > 0) {
      expect(verdicts).toHaveLength(1);
      expect(refused[0]?.intent).toBe(intent);
      tally.refused += 1;
      continue;
    }
    tally.approved += 1;
    const last = verdicts[verdicts.length - 1];
    expect(last?.intent.intentId).toBe(intent.intentId);
    const extras = verdicts.slice(0, -1).map((v) => v.intent);
    for (const extra of extras) expect(extra.kind).toBe('cancel');
    if (extras.length > 0) expect(['place', 'replace']).toContain(intent.kind);
    const cancelled = extras.flatMap((x) => (x.kind === 'cancel' ? [x.clordId] : []));
    const state = stricterState(risk.tradingState.state, world.state);
    if (intent.kind !== 'cancel' && intent.kind !== 'cancelAll') {
      tally.approvedOrders += 1;
      const inWindow = sent.filter((t) => t > time - 1000).length;
      expect(inWindow + verdicts.length, 'message rate').toBeLessThanOrEqual(config.maxMessagesPerSecond);
      for (const o of ordersOf(intent, world)) checkOrder(o, intent, cancelled, world, config, state);
    }
    for (const v of verdicts) {
      sent.push(time);
      apply(world, v.intent);
    }
  }
}

describe('risk properties', () => {
  it('approved + refused = all intents, and no approved order breaches a configured limit', () => {
    const tally: Tally = { intents: 0, approved: 0, refused: 0, approvedOrders: 0 };
    fc.assert(
      fc.property(configArb, worldArb, stepsArb, (config, world, steps) => run(config, world, steps, tally)),
      { numRuns: 400 },
    );
    expect(tally.approved + tally.refused).toBe(tally.intents);
    // Not vacuous: some orders get through the random limits (the next property exercises approvals more).
    expect(tally.approvedOrders).toBeGreaterThan(tally.intents / 100);
  });

  it('with every limit on and generous, still never breaches (exercises the approval paths)', () => {
    const generous = fc.record({
      maxOrderQty: fc.constant('12'),
      maxOrderNotional: fc.constant('8'),
      maxPosition: fc.integer({ min: 10, max: 30 }).map(String),
      maxEventPosition: fc.integer({ min: 20, max: 60 }).map(String),
      maxOpenOrders: fc.integer({ min: 6, max: 14 }),
      maxMessagesPerSecond: fc.integer({ min: 3, max: 10 }),
      priceBand: fc.constant({ percent: '100', whenNoReference: 'allow' as const }),
      maxDailyLoss: fc.constant('100'),
      selfMatch: fc.record({
        action: fc.constantFrom('refuse' as const, 'cancelResting' as const),
        scope: fc.constantFrom('account' as const, 'bot' as const),
      }),
    });
    const tally: Tally = { intents: 0, approved: 0, refused: 0, approvedOrders: 0 };
    fc.assert(
      fc.property(generous, worldArb, stepsArb, (config, world, steps) => run(config, world, steps, tally)),
      { numRuns: 300 },
    );
    expect(tally.approvedOrders).toBeGreaterThan(tally.intents / 15);
  });

  it('halted approves no order, only cancels', () => {
    fc.assert(
      fc.property(configArb, worldArb, fc.array(stepArb, { minLength: 1, maxLength: 20 }), (configInput, world, steps) => {
        const risk = new RiskManager(parseRiskConfig(configInput), { clock: fixedClock() });
        risk.tradingState.setState('halted', 'property');
        for (const step of steps) {
          const intent = intentOf(step, 0, world);
          if (intent === undefined) continue;
          for (const v of risk.check(intent, contextOf(world))) {
            if (v.kind === 'approved') expect(['cancel', 'cancelAll']).toContain(v.intent.kind);
          }
        }
      }),
      { numRuns: 200 },
    );
  });
});
