/**
 * The intent gate: every intent a strategy emits goes through risk here; approved ones are queued on the
 * execution adapter (sent when the engine step ends), refused ones are counted, logged at debug and handed
 * back to the strategy as a `refused` update that names what the call returned (`id`), the symbol and the
 * intent itself. The strategy runtime delivers that update after the call that emitted the intent has
 * returned (never inside it). It also notes the orders that can never rest (immediate-or-cancel and
 * fill-or-kill places, cross legs): nothing is left of them to cancel once the exchange has them. The
 * cancels the engine decides itself (reconciliation, the adopted-order policy) are approved by risk too
 * (`cancelByEngine`): they only count against the order rate.
 */
import type { Logger } from 'pino';
import type { CancelIntent, Intent } from '../intents.ts';
import type { Approved, Refused, RiskContext, RiskManager } from '../risk/index.ts';
import type { RunCounters } from '../run-counters.ts';
import type { RefusedView } from '../strategy/views.ts';

export interface IntentGateDeps {
  readonly risk: RiskManager;
  readonly context: RiskContext;
  readonly log: Logger;
  readonly counters: RunCounters;
  submit(approved: Approved): void;
  /** The symbol of a tracked order (any client order id it has had or is being given). */
  symbolOf(clordId: string): string | undefined;
  refused(view: RefusedView): void;
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
  const symbol =
    intent.kind === 'place' || intent.kind === 'cross' || intent.kind === 'cancelAll' ? intent.symbol : symbolOf(intent.clordId);
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

export class IntentGate {
  /** Client order ids of open orders that never rest (IOC/FOK places, cross legs). */
  private readonly immediate = new Set<string>();

  constructor(private readonly deps: IntentGateDeps) {}

  /** Risk-checks one intent: approved ones are submitted, a refusal goes back to the strategy. */
  handle(intent: Intent): void {
    const { risk, context, log, counters } = this.deps;
    counters.intents += 1;
    for (const verdict of risk.check(intent, context)) {
      if (verdict.kind === 'approved') {
        this.noteImmediate(verdict.intent);
        this.deps.submit(verdict.intent);
        continue;
      }
      counters.refused(verdict.code);
      const view = refusedView(verdict, (clordId) => this.deps.symbolOf(clordId));
      log.debug({ code: verdict.code, intent: intent.kind, symbol: view.symbol, id: view.id }, verdict.message);
      this.deps.refused(view);
    }
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
