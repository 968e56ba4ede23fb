/**
 * RiskManager: the one door between strategies and the execution adapter. `check(intent, context)` returns
 * either one Refused verdict for the intent, or the approved intents to send in order: for an order that
 * would trade against the bot's own resting orders under `selfMatch.action: cancelResting`, the cancels of
 * those orders come first, then the order, approved to wait for those cancels (`afterCancelOf`: the adapter
 * sends it only once they are confirmed). Approved places carry the configured self-match prevention
 * instruction when the strategy set none.
 *
 * Order of checks (the first breach is the refusal): intent shape -> venue capability (a cross on a venue
 * without crosses: RISK_CROSS_UNSUPPORTED) -> known symbol -> daily loss -> trading
 * state -> instrument rules (min qty, lot, tick, price limits) -> maxOrderQty -> maxOrderNotional ->
 * priceBand -> self-match -> maxPosition -> maxEventPosition -> maxOpenOrders -> message rate (unless the
 * execution adapter's send queue meters it: `messageRate: 'queue'`, see execution/throttle.ts). Cancels are
 * checked only for a known order and always pass the state gate and the throttle. A check that throws fails
 * closed (RISK_CHECK_FAILED). The manager's only state is the throttle window and the trading state machine.
 * Within one check the context's open orders, positions and PnL are read once.
 */
import { Decimal } from '../../domain/decimal.ts';
import { describeError } from '../../errors.ts';
import type { Clock } from '../clock.ts';
import type { CancelIntent, Intent, PlaceIntent } from '../intents.ts';
import { candidatesOf, type OrderCandidate } from './candidate.ts';
import { VENUE_MAX_MESSAGES_PER_SECOND, type RiskConfig } from './config.ts';
import {
  isOpenOrder,
  type ReferencePriceSource,
  type RiskContext,
  type RiskInstrument,
  type RiskOpenOrder,
  type RiskPosition,
} from './context.ts';
import { riskConfigError } from './errors.ts';
import { ExposureView } from './exposure.ts';
import { DailyLossRule } from './rules/daily-loss.ts';
import { lotSizeRule } from './rules/lot-size.ts';
import { maxEventPositionRule } from './rules/max-event-position.ts';
import { maxOpenOrdersRule } from './rules/max-open-orders.ts';
import { maxOrderNotionalRule } from './rules/max-order-notional.ts';
import { maxOrderQtyRule } from './rules/max-order-qty.ts';
import { maxPositionRule } from './rules/max-position.ts';
import { MessageRateThrottle } from './rules/message-rate.ts';
import { minQtyRule } from './rules/min-qty.ts';
import { priceBandRule, type BandWidth } from './rules/price-band.ts';
import { priceLimitsRule } from './rules/price-limits.ts';
import type { OrderRule, RuleBreach, RuleInput } from './rules/rule.ts';
import { selfMatchBreach, selfMatches } from './rules/self-match.ts';
import { tickSizeRule } from './rules/tick-size.ts';
import { tradingStateBreach } from './rules/trading-state-gate.ts';
import { TradingStateMachine, stricterState, type TradingState } from './trading-state.ts';
import { approve, refuse, type Approved, type Verdict } from './verdict.ts';

export interface RiskManagerOptions {
  /** Time for trading-state events raised outside a check (operator, feed); checks use the context's now(). */
  readonly clock: Pick<Clock, 'now'>;
  /** A state machine to share; default: one built from the config's onFeedStale/onStrategyError/onDailyLoss. */
  readonly tradingState?: TradingStateMachine;
  /**
   * `refuse` (default): an intent over maxMessagesPerSecond is refused here (RISK_ORDER_RATE). `queue`: the
   * execution adapter's send queue meters the messages (the pipeline with risk.maxQueuedMessages > 0), so
   * risk leaves the rate alone.
   */
  readonly messageRate?: 'refuse' | 'queue';
}

/** Config decimals come from the schema's decimal.js; computing limits happens in the project's Decimal. */
const own = (value: Decimal): Decimal => new Decimal(value);

function bandWidth(band: NonNullable<RiskConfig['priceBand']>): BandWidth {
  if (band.absolute !== undefined) return { kind: 'absolute', value: own(band.absolute) };
  if (band.ticks !== undefined) return { kind: 'ticks', value: band.ticks };
  if (band.percent !== undefined) return { kind: 'percent', value: own(band.percent) };
  throw riskConfigError(['priceBand: give exactly one band width: absolute, ticks or percent']);
}

function buildRules(config: RiskConfig): { pricing: OrderRule[]; exposure: OrderRule[] } {
  const pricing: OrderRule[] = [minQtyRule(), lotSizeRule(), tickSizeRule(), priceLimitsRule()];
  if (config.maxOrderQty !== undefined) pricing.push(maxOrderQtyRule(own(config.maxOrderQty)));
  if (config.maxOrderNotional !== undefined) pricing.push(maxOrderNotionalRule(own(config.maxOrderNotional)));
  if (config.priceBand !== undefined) {
    const { reference, whenNoReference } = config.priceBand;
    pricing.push(priceBandRule({ reference, whenNoReference, width: bandWidth(config.priceBand) }));
  }
  const exposure: OrderRule[] = [];
  if (config.maxPosition !== undefined) exposure.push(maxPositionRule(own(config.maxPosition)));
  if (config.maxEventPosition !== undefined) exposure.push(maxEventPositionRule(own(config.maxEventPosition)));
  if (config.maxOpenOrders !== undefined) exposure.push(maxOpenOrdersRule(config.maxOpenOrders));
  return { pricing, exposure };
}

export class RiskManager {
  readonly tradingState: TradingStateMachine;
  private readonly config: RiskConfig;
  private readonly dailyLoss: DailyLossRule | undefined;
  private readonly pricingRules: readonly OrderRule[];
  private readonly exposureRules: readonly OrderRule[];
  private readonly throttle: MessageRateThrottle | undefined;

  constructor(config: RiskConfig, options: RiskManagerOptions) {
    this.config = config;
    if (
      !Number.isInteger(config.maxMessagesPerSecond) ||
      config.maxMessagesPerSecond < 1 ||
      config.maxMessagesPerSecond > VENUE_MAX_MESSAGES_PER_SECOND
    ) {
      throw riskConfigError([
        `maxMessagesPerSecond: must be a whole number from 1 to ${VENUE_MAX_MESSAGES_PER_SECOND}, got ${config.maxMessagesPerSecond}`,
      ]);
    }
    this.dailyLoss = config.maxDailyLoss === undefined ? undefined : new DailyLossRule(own(config.maxDailyLoss));
    const rules = buildRules(config);
    this.pricingRules = rules.pricing;
    this.exposureRules = rules.exposure;
    this.throttle = options.messageRate === 'queue' ? undefined : new MessageRateThrottle(config.maxMessagesPerSecond);
    this.tradingState =
      options.tradingState ??
      new TradingStateMachine(options.clock, {
        onFeedStale: config.onFeedStale,
        onStrategyError: config.onStrategyError,
        onDailyLoss: config.onDailyLoss,
      });
  }

  /** Approved intents in sending order (self-match cancels first), or exactly one Refused. */
  check(intent: Intent, context: RiskContext): Verdict[] {
    let verdicts: Verdict[];
    try {
      verdicts = this.evaluate(intent, new CheckContext(context));
    } catch (error) {
      return [refuse(intent, 'RISK_CHECK_FAILED', `risk check failed, intent refused: ${describeError(error)}`)];
    }
    let approved = 0;
    for (const v of verdicts) if (v.kind === 'approved') approved++;
    if (approved > 0) this.throttle?.record(intent.time, approved);
    return verdicts;
  }

  /**
   * Approves a cancel the engine itself decided (a reconciliation cancelling an unknown order, or one the
   * exchange still works that the bot holds for finished). Cancels always pass (refusing one would keep risk
   * on the book), but each counts in the message-rate window like a strategy's, so later orders are throttled
   * for it. The only door for engine cancels: the execution adapter takes approved intents only.
   */
  approveEngineCancel(intent: CancelIntent): Approved<CancelIntent> {
    this.throttle?.record(intent.time, 1);
    return approve(intent);
  }

  /** Re-evaluates the daily loss limit outside a check (call on PnL updates): switches the state when breached. */
  refresh(context: RiskContext): void {
    const breach = this.dailyLoss?.breach(context);
    if (breach !== undefined) this.tradingState.dailyLossBreached(breach, context.now());
  }

  private evaluate(intent: Intent, context: RiskContext): Verdict[] {
    switch (intent.kind) {
      case 'cancel':
        if (context.openOrders().some((o) => isOpenOrder(o, intent.clordId))) return [{ kind: 'approved', intent: approve(intent) }];
        return [refuse(intent, 'RISK_UNKNOWN_ORDER', `no open order ${intent.clordId} to cancel`)];
      case 'cancelAll':
        return [{ kind: 'approved', intent: approve(intent) }];
      case 'place':
      case 'replace':
      case 'cross':
        return this.evaluateOrder(intent, context);
      default:
        return [refuse(intent, 'RISK_INVALID_INTENT', `unknown intent kind ${JSON.stringify((intent as { kind: unknown }).kind)}`)];
    }
  }

  private evaluateOrder(intent: Intent, context: RiskContext): Verdict[] {
    const shaped = candidatesOf(intent, context);
    if (!shaped.ok) return [refuse(intent, shaped.breach.code, shaped.breach.message)];
    if (intent.kind === 'cross' && context.canCross?.() === false) {
      return [
        refuse(
          intent,
          'RISK_CROSS_UNSUPPORTED',
          `cross ${intent.crossId} refused: this venue has no cross (bot.venue: familyA); nothing was sent. ` +
            'Run crosses through the gateway venue',
        ),
      ];
    }
    const candidates = shaped.candidates;
    const symbol = candidates[0]?.symbol ?? '';
    const instrument = context.instrument(symbol);
    if (instrument === undefined) return [refuse(intent, 'RISK_UNKNOWN_SYMBOL', `no reference data for symbol ${symbol}`)];
    const exposure = this.exposureOf(context);

    const gate = this.stateBreach(candidates, exposure, context);
    if (gate !== undefined) return [refuse(intent, gate.code, gate.message)];

    const withdrawn: RiskOpenOrder[] = [];
    for (const candidate of candidates) {
      // one input for both rule lists: `withdrawn` is the same array, grown by the self-match cancels between them
      const input: RuleInput = { candidate, instrument, context, exposure, withdrawn };
      const priced = firstBreach(this.pricingRules, input);
      if (priced !== undefined) return [refuse(intent, priced.code, priced.message)];
      const selfMatch = this.selfMatch(candidate, exposure, context);
      if ('code' in selfMatch) return [refuse(intent, selfMatch.code, selfMatch.message)];
      for (const order of selfMatch.cancelFirst) if (!withdrawn.includes(order)) withdrawn.push(order);
      const exposed = firstBreach(this.exposureRules, input);
      if (exposed !== undefined) return [refuse(intent, exposed.code, exposed.message)];
    }
    const rate = this.throttle?.check(intent.time, withdrawn.length + 1);
    if (rate !== undefined) return [refuse(intent, rate.code, rate.message)];

    if (withdrawn.length === 0) return [{ kind: 'approved', intent: approve(this.withInstruction(intent)) }];
    const cancels = withdrawn.map((order): Verdict => ({ kind: 'approved', intent: approve(selfMatchCancel(intent, order)) }));
    const after = withdrawn.map((order) => order.clordId);
    return [...cancels, { kind: 'approved', intent: approve(this.withInstruction(intent), after) }];
  }

  /** Daily loss (switching the state when breached), then the trading-state gate. */
  /**
   * The exposure view of the context's positions and open orders, kept while both lists are the same objects:
   * the engine's lists are taken afresh only when an order or a position changes, while intents come on every
   * book event (a context that builds new lists on each call just gets a new view each time).
   */
  private exposureOf(context: RiskContext): ExposureView {
    const positions = context.positions();
    const orders = context.openOrders();
    const cached = this.exposureCache;
    if (cached !== undefined && cached.positions === positions && cached.orders === orders) return cached.view;
    const view = new ExposureView(context);
    this.exposureCache = { positions, orders, view };
    return view;
  }

  private exposureCache:
    { readonly positions: readonly RiskPosition[]; readonly orders: readonly RiskOpenOrder[]; readonly view: ExposureView } | undefined =
    undefined;

  private stateBreach(candidates: readonly OrderCandidate[], exposure: ExposureView, context: RiskContext): RuleBreach | undefined {
    if (this.dailyLoss !== undefined) {
      const loss = this.dailyLoss.breach(context);
      if (loss !== undefined) {
        this.tradingState.dailyLossBreached(loss, context.now());
        if (!candidates.every((c) => exposure.isReducing(c))) {
          return { code: 'RISK_DAILY_LOSS', message: `${loss}: only risk-reducing intents pass` };
        }
      }
    }
    const mine = this.tradingState.state;
    const state = stricterState(mine, context.tradingState());
    const reason = state === mine ? `${this.tradingState.cause}: ${this.tradingState.reason}` : 'set by the engine';
    return tradingStateBreach(state, reason, candidates, exposure);
  }

  /** The breach (action refuse), or the bot's crossed orders to cancel first (none when action is off). */
  private selfMatch(
    candidate: OrderCandidate,
    exposure: ExposureView,
    context: RiskContext,
  ): RuleBreach | { readonly cancelFirst: readonly RiskOpenOrder[] } {
    const { action, scope } = this.config.selfMatch;
    if (action === 'off') return { cancelFirst: [] };
    const conflicts = selfMatches(candidate, exposure.openOrders, scope);
    if (conflicts.length > 0 && action === 'refuse') return selfMatchBreach(candidate, conflicts, (id) => context.strategyOf?.(id));
    return { cancelFirst: conflicts };
  }

  private withInstruction<T extends Intent>(intent: T): T {
    const instruction = this.config.selfMatch.instruction;
    if (intent.kind !== 'place' || instruction === undefined || intent.selfMatchPrevention !== undefined) return intent;
    // one literal: spreading then overriding a field costs microseconds per object on Node 20's V8
    const filled: PlaceIntent = {
      kind: 'place',
      intentId: intent.intentId,
      strategy: intent.strategy,
      time: intent.time,
      clordId: intent.clordId,
      symbol: intent.symbol,
      side: intent.side,
      qty: intent.qty,
      price: intent.price,
      timeInForce: intent.timeInForce,
      postOnly: intent.postOnly,
      account: intent.account,
      selfMatchPrevention: instruction,
      label: intent.label,
    };
    return filled as T;
  }
}

/**
 * The context as one check sees it: open orders, positions and PnL are read at most once (several rules and
 * the exposure view ask for them, and a check changes nothing, so every read would give the same answer).
 * A class rather than an object of closures: a check runs on every intent.
 */
class CheckContext implements RiskContext {
  readonly defaultAccount: string;
  private openOrderList: readonly RiskOpenOrder[] | undefined;
  private positionList: readonly RiskPosition[] | undefined;
  private pnl: Decimal | undefined;

  constructor(private readonly context: RiskContext) {
    this.defaultAccount = context.defaultAccount;
  }

  now(): number {
    return this.context.now();
  }

  accounts(): readonly string[] {
    return this.context.accounts();
  }

  strategyOf(clordId: string): string | undefined {
    return this.context.strategyOf?.(clordId);
  }

  instrument(symbol: string): RiskInstrument | undefined {
    return this.context.instrument(symbol);
  }

  referencePrice(symbol: string, source: ReferencePriceSource): Decimal | undefined {
    return this.context.referencePrice(symbol, source);
  }

  positions(): readonly RiskPosition[] {
    this.positionList ??= this.context.positions();
    return this.positionList;
  }

  openOrders(): readonly RiskOpenOrder[] {
    this.openOrderList ??= this.context.openOrders();
    return this.openOrderList;
  }

  dailyPnl(): Decimal {
    this.pnl ??= this.context.dailyPnl();
    return this.pnl;
  }

  tradingState(): TradingState {
    return this.context.tradingState();
  }

  canCross(): boolean {
    return this.context.canCross?.() ?? true;
  }
}

function firstBreach(rules: readonly OrderRule[], input: RuleInput): RuleBreach | undefined {
  for (const rule of rules) {
    const breach = rule.check(input);
    if (breach !== undefined) return breach;
  }
  return undefined;
}

/** The cancel sent before an order that would trade against `order`; traceable to the intent that caused it. */
function selfMatchCancel(cause: Intent, order: RiskOpenOrder): CancelIntent {
  return {
    kind: 'cancel',
    intentId: `${cause.intentId}/smp-cancel/${order.clordId}`,
    strategy: cause.strategy,
    time: cause.time,
    clordId: order.clordId,
  };
}
