/**
 * A scripted market on a virtual clock: one strategy (a `defineStrategy` definition and raw params) runs in the
 * real engine pipeline (risk, execution adapter, order tracker, portfolio) against a ScriptedVenue. The test
 * sets books, prints trades, moves virtual time (strategy timers fire at their due times), decides what the
 * venue does with orders, and reads what happened: the strategy's intents, refusals and fills (recorded,
 * structured and as text), positions, open orders and the trading state. Every step returns a promise that
 * resolves once the engine has handled everything the step caused: no sleeps, the same run every time.
 *
 *   const market = await startScriptedMarket({ strategy: maker, params: { symbols: ['RAIN'] } });
 *   await market.book('RAIN', { bids: [['0.40', 10]], offers: [['0.44', 10]] });
 *   market.takeIntents(); // ['place #1 BUY 5 RAIN@0.40 GTC post quote', 'place #2 SELL 5 RAIN@0.44 GTC post quote']
 *   await market.fill('#1');
 *   market.position('RAIN'); // Decimal 5
 *   await market.stop();
 */
import type { Logger } from 'pino';
import { parseDecimal, type Decimal } from '../domain/decimal.ts';
import { VirtualClock } from '../engine/clock.ts';
import type { IntentSide } from '../engine/intents.ts';
import { startPipeline, type RunningPipeline } from '../engine/pipeline/index.ts';
import { Portfolio } from '../engine/portfolio/index.ts';
import { portfolioPort } from '../engine/portfolio-port.ts';
import { parseRiskConfig, type RiskConfigInput } from '../engine/risk/index.ts';
import type { TradingState, TradingStateCause } from '../engine/risk/trading-state.ts';
import { symbolsOf, type AnyStrategy } from '../engine/strategy/define-strategy.ts';
import { validateParams } from '../engine/strategy/loader.ts';
import type { OrderView } from '../engine/strategy/views.ts';
import type { RunCounters } from '../engine/run-counters.ts';
import { silentLogger } from '../logging/logger.ts';
import { testingError } from './errors.ts';
import { scriptedInstrument, type ScriptedInstrument } from './instruments.ts';
import { resolveOrder, type OrderRef } from './order-ref.ts';
import { recordStrategy, type StrategyRecorder } from './recorder.ts';
import type { RecordedFill, RecordedIntent, RecordedRefusal } from './records.ts';
import type { BookInput } from './scripted-book.ts';
import { DEFAULT_POLICY, ScriptedVenue, type HeldCall, type ScriptedVenuePolicy, type StartingPosition } from './scripted-venue.ts';
import type { ScriptedOrderView } from './venue-orders.ts';

/** The account a scripted market trades unless told otherwise. */
export const SCRIPTED_ACCOUNT = 'firms/test/accounts/main';
/** Where virtual time starts unless told otherwise: 2026-01-15T14:00:00Z. */
export const SCRIPTED_START = Date.UTC(2026, 0, 15, 14, 0, 0);
/** Engine rounds (venue answers and their follow-ups) one step may take before `settle` gives up. */
const MAX_ROUNDS = 10_000;

export interface ScriptedMarketOptions {
  /** The plugin's definition (the default export of a strategy module). */
  readonly strategy: AnyStrategy;
  /** Raw params, as YAML would give them; validated by the plugin's schema (a ConfigError lists every problem). */
  readonly params: unknown;
  /**
   * Reference data: a spec per symbol (tick, price limits, ...). The traded symbols (`symbols(params)`, else
   * `params.symbols` / `params.symbol`) without a spec get cent prices 0.01..0.99 and whole contracts.
   */
  readonly instruments?: readonly (ScriptedInstrument | string)[];
  /** The `risk:` section as a plain object (`{ maxPosition: '10' }`); default: no limits but the message rate. */
  readonly risk?: RiskConfigInput;
  /** The run's default account (default SCRIPTED_ACCOUNT) and every account it follows (default: that one). */
  readonly account?: string;
  readonly accounts?: readonly string[];
  /** Virtual time at the start: epoch ms or an ISO time (default SCRIPTED_START). */
  readonly startTime?: number | string;
  /** How the venue answers calls (default: inserts `match`, cancels and replaces `accept`). */
  readonly policy?: Partial<ScriptedVenuePolicy>;
  /** Positions held before the start (the engine adopts them from its start-up reconciliation). */
  readonly positions?: readonly StartingPosition[];
  /** The engine's logger (default: silent). */
  readonly log?: Logger;
}

/** The trading state as risk holds it. */
export interface TradingStateInfo {
  readonly state: TradingState;
  readonly cause: TradingStateCause | undefined;
  readonly reason: string;
}

/** A running scripted market; see the module comment. Every method that changes something settles the engine. */
export interface ScriptedMarket {
  readonly clock: VirtualClock;
  readonly venue: ScriptedVenue;
  readonly pipeline: RunningPipeline;
  readonly recorder: StrategyRecorder;
  readonly symbols: readonly string[];
  readonly account: string;
  /** Virtual time now (epoch ms), and how much has passed since the start. */
  now(): number;
  elapsed(): number;
  /** Sets `symbol`'s book (levels as decimal strings; the bot's own resting orders are added) and lets the engine handle it. */
  book(symbol: string, book: BookInput): Promise<void>;
  /** Prints a trade on the market (anyone's): the strategy's `onTrade` sees it with the current book. */
  trade(symbol: string, price: string, qty: string | number): Promise<void>;
  /** Moves virtual time by `ms`, firing each due timer at its own time and settling after each. */
  advance(ms: number): Promise<void>;
  /** Moves virtual time to `time` (epoch ms or ISO), as `advance`. */
  advanceTo(time: number | string): Promise<void>;
  /** Runs every queued venue answer and lets the engine handle it (the other methods do this themselves). */
  settle(): Promise<void>;
  /** Fills an open order at the venue: by default all that is left, at its limit price. */
  fill(order: OrderRef, fill?: { readonly qty?: string | number; readonly price?: string }): Promise<void>;
  /** Cancels an open order on the venue's own initiative. */
  cancel(order: OrderRef): Promise<void>;
  /** Answers a held call (policy `hold`) of `order`: accept it, or reject it with a reason. */
  answer(order: OrderRef, answer: 'accept' | { readonly reject: string }, kind?: HeldCall['kind']): Promise<void>;
  /** Calls held by the `hold` policy, oldest first. */
  held(): readonly HeldCall[];
  /** Changes how the venue answers calls from now on. */
  setPolicy(policy: Partial<ScriptedVenuePolicy>): void;
  /** The venue's view of one order, or of all it received (optionally one symbol's / open ones only). */
  order(ref: OrderRef): ScriptedOrderView;
  venueOrders(filter?: { readonly symbol?: string; readonly side?: IntentSide; readonly openOnly?: boolean }): readonly ScriptedOrderView[];
  /** Recorded intents, refusals and fills, structured. */
  readonly intents: readonly RecordedIntent[];
  readonly refusals: readonly RecordedRefusal[];
  readonly fills: readonly RecordedFill[];
  /** The readable lines of every intent / refusal / fill so far. */
  intentLog(): string[];
  refusalLog(): string[];
  fillLog(): string[];
  /** The readable lines of the intents since the previous `takeIntents` (or the start). */
  takeIntents(): string[];
  /** Net position in `symbol` (across the run's accounts unless `account` is given), as the engine holds it. */
  position(symbol: string, account?: string): Decimal;
  /** The engine's open orders (what `ctx.openOrders` shows). */
  openOrders(symbol?: string): readonly OrderView[];
  readonly tradingState: TradingStateInfo;
  /** Sets the trading state as an operator would (`halted` cancels every open order). */
  setTradingState(state: TradingState, reason?: string): Promise<void>;
  readonly counters: RunCounters;
  /** Stops the strategy (its `onStop`), cancels open orders (held calls are accepted) and ends the streams. */
  stop(): Promise<void>;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function epoch(time: number | string): number {
  const ms = typeof time === 'number' ? time : Date.parse(time);
  if (!Number.isFinite(ms))
    throw testingError('TESTING_TIME_BACKWARDS', `not a time: ${String(time)} (give epoch ms or an ISO time such as 2026-01-15T14:00:00Z)`);
  return ms;
}

/** Runs queued venue answers until nothing moves: every answer and what it caused has been handled. */
export async function settleVenue(venue: ScriptedVenue): Promise<void> {
  let quiet = 0;
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    if (venue.runJob()) {
      quiet = 0;
      await turn();
      continue;
    }
    const before = venue.activity;
    await turn();
    quiet = venue.activity === before ? quiet + 1 : 0;
    if (quiet >= 2) return;
  }
  throw testingError(
    'TESTING_NOT_SETTLED',
    `the engine and the scripted venue kept exchanging messages for ${MAX_ROUNDS} rounds ` +
      '(a strategy that answers every order update with a new intent?)',
  );
}

/** The venue, clock and recorded strategy of a scripted market, before its pipeline starts. */
function scriptedSetup(options: ScriptedMarketOptions) {
  const params = validateParams(options.strategy, options.params, { path: '' });
  const symbols = symbolsOf(options.strategy, params);
  if (symbols.length === 0)
    throw testingError(
      'TESTING_NO_SYMBOLS',
      `strategy ${options.strategy.name} trades no symbols with these params: ` +
        'give params.symbols (or symbol), or a symbols(params) in the definition',
    );
  const start = epoch(options.startTime ?? SCRIPTED_START);
  const clock = new VirtualClock(start);
  const account = options.account ?? SCRIPTED_ACCOUNT;
  const specs = new Map((options.instruments ?? []).map((s) => [typeof s === 'string' ? s : s.symbol, s]));
  for (const symbol of symbols) if (!specs.has(symbol)) specs.set(symbol, symbol);
  const venue = new ScriptedVenue([...specs.values()].map(scriptedInstrument), () => clock.now(), account, options.positions);
  venue.policy = { ...DEFAULT_POLICY, ...options.policy };
  const { strategy, recorder } = recordStrategy(options.strategy);
  const portfolio = portfolioPort(new Portfolio({ clock }));
  return { params, symbols, start, clock, account, venue, strategy, recorder, portfolio };
}

/** What the market's steps share: the venue, clock, recorder, and whether the market was stopped. */
interface Steps {
  readonly clock: VirtualClock;
  readonly venue: ScriptedVenue;
  readonly recorder: StrategyRecorder;
  stopped: boolean;
}

/** Throws TESTING_STOPPED when the market was stopped. */
function live(steps: Steps, what: string): void {
  if (steps.stopped) throw testingError('TESTING_STOPPED', `${what}: the scripted market was stopped`);
}

/** Moves virtual time to `target`, firing each due timer at its own time and settling after each. */
async function advanceTo(steps: Steps, target: number): Promise<void> {
  const { clock, venue } = steps;
  live(steps, 'advance');
  if (target < clock.now())
    throw testingError(
      'TESTING_TIME_BACKWARDS',
      `cannot move virtual time back from ${new Date(clock.now()).toISOString()} to ${new Date(target).toISOString()}`,
    );
  while (clock.nextActionTime() <= target) {
    clock.runNextAction();
    await settleVenue(venue);
  }
  clock.advanceTo(target);
  await settleVenue(venue);
}

/** ScriptedMarket.fill: all that is left at the limit price unless told otherwise. */
async function fillOrder(steps: Steps, ref: OrderRef, fill: { readonly qty?: string | number; readonly price?: string }): Promise<void> {
  const { venue, recorder } = steps;
  live(steps, 'fill');
  const order = resolveOrder(ref, venue.allOrders(), recorder);
  const price = fill.price === undefined ? order.price : parseDecimal(fill.price, 'fill price');
  if (price === undefined)
    throw testingError('TESTING_INVALID_FILL', `order ${recorder.nameOf(order.clordId)} has no limit price: give the fill's price`);
  venue.fill(order, fill.qty === undefined ? order.leavesQty : parseDecimal(fill.qty, 'fill qty'), price);
  await settleVenue(venue);
}

/** ScriptedMarket.answer: accepts or rejects a held call of the order (TESTING_NO_HELD_CALL when none). */
async function answerHeld(
  steps: Steps,
  ref: OrderRef,
  answer: 'accept' | { readonly reject: string },
  kind: HeldCall['kind'] | undefined,
): Promise<void> {
  const { venue, recorder } = steps;
  const order = resolveOrder(ref, venue.allOrders(), recorder);
  const call = venue.heldCalls().find((c) => c.order.orderId === order.orderId && (kind === undefined || c.kind === kind));
  if (call === undefined)
    throw testingError(
      'TESTING_NO_HELD_CALL',
      `no held ${kind ?? 'call'} for ${recorder.nameOf(order.clordId)} (held: ${
        venue
          .heldCalls()
          .map((c) => `${c.kind} ${recorder.nameOf(c.order.clordId)}`)
          .join(', ') || 'none'
      })`,
    );
  if (answer === 'accept') call.accept();
  else call.reject(answer.reject);
  await settleVenue(venue);
}

/** ScriptedMarket.stop: held calls accepted, the pipeline stopped (settling until it is), the venue closed. */
async function stopMarket(steps: Steps, pipeline: RunningPipeline): Promise<void> {
  const { venue } = steps;
  if (steps.stopped) return;
  steps.stopped = true;
  venue.policy = { ...venue.policy, cancel: 'accept', replace: 'accept' };
  for (const call of [...venue.heldCalls()]) call.accept();
  let done = false;
  const stopping = pipeline.stop().finally(() => (done = true));
  for (let round = 0; !done; round += 1) {
    if (round >= 100)
      throw testingError('TESTING_NOT_SETTLED', 'stop: the pipeline did not finish stopping (a venue call left unanswered?)');
    await settleVenue(venue);
  }
  await stopping;
  await venue.close();
}

/** The venue's orders, of one symbol and side, open ones only, as asked. */
function venueOrdersOf(venue: ScriptedVenue, filter: Parameters<ScriptedMarket['venueOrders']>[0] = {}): readonly ScriptedOrderView[] {
  return venue
    .allOrders()
    .filter(
      (o) =>
        (filter.symbol === undefined || o.symbol === filter.symbol) &&
        (filter.side === undefined || o.side === filter.side) &&
        (filter.openOnly !== true || o.status === 'open'),
    );
}

/** Starts the pipeline with `options.strategy` on a scripted venue and a virtual clock; see ScriptedMarket. */
export async function startScriptedMarket(options: ScriptedMarketOptions): Promise<ScriptedMarket> {
  const { params, symbols, start, clock, account, venue, strategy, recorder, portfolio } = scriptedSetup(options);
  const pipeline = await startPipeline({
    venue,
    clock,
    log: options.log ?? silentLogger(),
    strategy,
    params,
    risk: parseRiskConfig(options.risk ?? {}),
    portfolio,
    account,
    accounts: options.accounts ?? [account],
    symbols,
  });
  let taken = 0;
  const steps: Steps = { clock, venue, recorder, stopped: false };
  const settle = () => settleVenue(venue);
  await settle();

  const market: ScriptedMarket = {
    clock,
    venue,
    pipeline,
    recorder,
    symbols,
    account,
    now: () => clock.now(),
    elapsed: () => clock.now() - start,
    async book(symbol, book) {
      live(steps, 'book');
      venue.setBook(symbol, book);
      await settle();
    },
    async trade(symbol, price, qty) {
      live(steps, 'trade');
      venue.printTrade(symbol, price, qty);
      await settle();
    },
    advance: (ms) => advanceTo(steps, clock.now() + ms),
    advanceTo: (time) => advanceTo(steps, epoch(time)),
    settle,
    fill: (ref, fill = {}) => fillOrder(steps, ref, fill),
    async cancel(ref) {
      live(steps, 'cancel');
      venue.cancelUnsolicited(resolveOrder(ref, venue.allOrders(), recorder));
      await settle();
    },
    answer: (ref, answer, kind) => answerHeld(steps, ref, answer, kind),
    held: () => venue.heldCalls(),
    setPolicy(policy) {
      venue.policy = { ...venue.policy, ...policy };
    },
    order: (ref) => resolveOrder(ref, venue.allOrders(), recorder),
    venueOrders: (filter) => venueOrdersOf(venue, filter),
    intents: recorder.intents,
    refusals: recorder.refusals,
    fills: recorder.fills,
    intentLog: () => recorder.intents.map((i) => i.text),
    refusalLog: () => recorder.refusals.map((r) => r.text),
    fillLog: () => recorder.fills.map((f) => f.text),
    takeIntents() {
      const lines = recorder.intents.slice(taken).map((i) => i.text);
      taken = recorder.intents.length;
      return lines;
    },
    position: (symbol, acct) => portfolio.position(symbol, acct),
    openOrders: (symbol) => pipeline.tracker.open(symbol),
    get tradingState(): TradingStateInfo {
      const t = pipeline.risk.tradingState;
      return { state: t.state, cause: t.state === 'active' ? undefined : t.cause, reason: t.reason };
    },
    async setTradingState(state, reason = 'set by the test') {
      live(steps, 'setTradingState');
      pipeline.risk.tradingState.setState(state, reason);
      await settle();
    },
    counters: pipeline.counters,
    stop: () => stopMarket(steps, pipeline),
  };
  return market;
}
