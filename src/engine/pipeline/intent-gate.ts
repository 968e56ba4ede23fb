/**
 * The intent gate: every intent a strategy emits goes through risk here; approved ones are queued on the
 * execution adapter (sent when the engine step ends), refused ones are counted, logged at debug and handed
 * back to the strategy as a `refused` update that names what the call returned (`id`), the symbol and the
 * intent itself. The strategy runtime delivers that update after the call that emitted the intent has
 * returned (never inside it). It also notes the orders that can never rest (immediate-or-cancel and
 * fill-or-kill places, cross legs): nothing is left of them to cancel once the exchange has them. The
 * cancels the engine decides itself (reconciliation, the adopted-order policy) are approved by risk too
 * (`cancelByEngine`): they only count against the order rate.
 *
 * With the send queue on (risk.maxQueuedMessages > 0), an approved order or replace is refused with
 * RISK_ORDER_RATE only when the queue is full (`queueFull`); otherwise it waits there for the message budget.
 * `throttledView` turns what the queue reports about a waiting intent into the strategy's update.
 */
import type { Logger } from 'pino';
import type { CancelIntent, Intent } from '../intents.ts';
import type { ThrottleOutcome } from '../execution/adapter.ts';
import { refuse, type Approved, type Refused, type RiskContext, type RiskManager } from '../risk/index.ts';
import type { RunCounters } from '../run-counters.ts';
import type { RefusedView, ThrottledView } from '../strategy/views.ts';
import { RenewingSet } from '../../util/renewing-collections.ts';

export interface IntentGateDeps {
  readonly risk: RiskManager;
  readonly context: RiskContext;
  readonly log: Logger;
  readonly counters: Pick<RunCounters, 'intents' | 'refused'>;
  submit(approved: Approved): void;
  /** The symbol of a tracked order (any client order id it has had or is being given). */
  symbolOf(clordId: string): string | undefined;
  refused(view: RefusedView): void;
  /** Why the send queue cannot take this approved intent on now (it is full), or undefined. */
  queueFull?(intent: Intent): string | undefined;
  /** A check before the bot's risk (a strategy's own limits, #25): its refusal, or undefined to go on. */
  preCheck?(intent: Intent): Refused | undefined;
}

/** A cancel the engine decides (reconciliation, the adopted-order policy), before risk approves it. */
export function engineCancelIntent(clordId: string, intentId: string, time: number): CancelIntent {
  return { kind: 'cancel', clordId, intentId, strategy: 'reconciliation', time };
}

/** What the call that emitted `intent` returned: the id a strategy ties the outcome to. */
export function returnedId(intent: Intent): string | undefined {
  switch (intent.kind) {
    case 'place':
    case 'cancel':
      return intent.clordId;
    case 'replace':
      return intent.newClordId;
    case 'cross':
      return intent.crossId;
    case 'cancelAll':
      return undefined;
  }
}

/** The `refused` update of a refused intent. */
export function refusedView(verdict: Refused, symbolOf: (clordId: string) => string | undefined): RefusedView {
  const intent = verdict.intent;
  const clordId = intent.kind === 'place' || intent.kind === 'cancel' || intent.kind === 'replace' ? intent.clordId : undefined;
  const symbol = symbolOfIntent(intent, symbolOf);
  return {
    type: 'refused',
    id: returnedId(intent),
    kind: intent.kind,
    symbol,
    clordId,
    crossId: intent.kind === 'cross' ? intent.crossId : undefined,
    intentId: intent.intentId,
    intent,
    code: verdict.code,
    message: verdict.message,
  };
}

/** The symbol an intent concerns (for a cancel or replace: the order's, when the engine knows it). */
function symbolOfIntent(intent: Intent, symbolOf: (clordId: string) => string | undefined): string | undefined {
  return intent.kind === 'place' || intent.kind === 'cross' || intent.kind === 'cancelAll' ? intent.symbol : symbolOf(intent.clordId);
}

/** The `throttled` update of an intent that waits for the message budget (or was sent or superseded after). */
export function throttledView(
  outcome: ThrottleOutcome & { status: ThrottledView['status'] },
  symbolOf: (clordId: string) => string | undefined,
): ThrottledView {
  const intent = outcome.intent;
  return {
    type: 'throttled',
    status: outcome.status,
    id: returnedId(intent),
    kind: intent.kind,
    symbol: symbolOfIntent(intent, symbolOf),
    clordId: intent.kind === 'place' || intent.kind === 'cancel' || intent.kind === 'replace' ? intent.clordId : undefined,
    intentId: intent.intentId,
    intent,
    time: outcome.time,
  };
}

export class IntentGate {
  /** Client order ids of open orders that never rest (IOC/FOK places, cross legs). */
  private readonly immediate = new RenewingSet<string>();

  constructor(private readonly deps: IntentGateDeps) {}

  /** Risk-checks one intent: approved ones are submitted, a refusal goes back to the strategy. */
  handle(intent: Intent): void {
    const { risk, context, counters } = this.deps;
    counters.intents += 1;
    const own = this.deps.preCheck?.(intent);
    if (own !== undefined) {
      this.refuse(own);
      return;
    }
    for (const verdict of risk.check(intent, context)) {
      const full = verdict.kind === 'approved' ? this.deps.queueFull?.(verdict.intent) : undefined;
      if (verdict.kind === 'approved' && full === undefined) {
        this.noteImmediate(verdict.intent);
        this.deps.submit(verdict.intent);
        continue;
      }
      this.refuse(verdict.kind === 'refused' ? verdict : refuse(verdict.intent, 'RISK_ORDER_RATE', `intent refused: ${full ?? ''}`));
    }
  }

  /** A refusal: counted, logged at debug, handed back to the strategy. */
  refuse(verdict: Refused): void {
    this.deps.counters.refused(verdict.code);
    const view = refusedView(verdict, (clordId) => this.deps.symbolOf(clordId));
    this.deps.log.debug({ code: verdict.code, intent: verdict.intent.kind, symbol: view.symbol, id: view.id }, verdict.message);
    this.deps.refused(view);
  }

  /** What the send queue reports about a waiting intent: to the strategy; one that waited too long is refused. */
  throttled(outcome: ThrottleOutcome, deliver: (view: ThrottledView) => void): void {
    if (outcome.status === 'refused') {
      this.refuse(refuse(outcome.intent, 'RISK_ORDER_RATE', `intent refused: ${outcome.reason}`));
      return;
    }
    deliver(throttledView(outcome, (clordId) => this.deps.symbolOf(clordId)));
  }

  /** A cancel the engine decides: approved by risk (it counts against the order rate), then submitted. */
  cancelByEngine(intent: CancelIntent): void {
    this.deps.submit(this.deps.risk.approveEngineCancel(intent));
  }

  /** True for an order that can never rest on the book (cancelling it is pointless: its outcome is on the way). */
  isImmediate(clordId: string): boolean {
    return this.immediate.has(clordId);
  }

  /** The order (known by these client order ids) ended: forgotten. */
  finished(clordIds: readonly string[]): void {
    if (this.immediate.size === 0) return;
    for (const clordId of clordIds) this.immediate.delete(clordId);
  }

  /** True while an order that never rests is still open. */
  get immediateOpen(): number {
    return this.immediate.size;
  }

  private noteImmediate(intent: Intent): void {
    const neverRests = intent.kind === 'place' && (intent.timeInForce === 'IMMEDIATE_OR_CANCEL' || intent.timeInForce === 'FILL_OR_KILL');
    if (neverRests) this.immediate.add(intent.clordId);
    else if (intent.kind === 'cross') {
      this.immediate.add(intent.buy.clordId);
      this.immediate.add(intent.sell.clordId);
    }
  }
}
