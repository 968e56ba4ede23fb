/**
 * What the engine does with the order side: each order-stream event goes into the OrderTracker (a snapshot
 * then asks for a reconciliation); what the tracker makes of it flows on from here:
 * - a fill: counted, applied to the portfolio, noted for the Reconciler, then delivered to the strategy with
 *   the order's view;
 * - an order update: journaled, an ended order forgotten by the intent gate, the execution adapter told
 *   (orders waiting for an acknowledgement or a self-match cancel), the adopted-order policy applied to an
 *   order first seen on the exchange (`unknownOrders: 'cancel'` cancels it), then delivered to the strategy;
 * - an oddity the tracker tolerated (a late execution of a forgotten order, an estimated fill price): logged.
 */
import type { Logger } from 'pino';
import type { Subscription } from 'rxjs';
import type { JournalRecorder } from '../journal/index.ts';
import { isTerminal, type Fill, type OrderTracker, type OrderUpdate, type TrackedOrder } from '../orders/index.ts';
import type { PortfolioPort } from '../portfolio-port.ts';
import type { RunCounters } from '../run-counters.ts';
import type { OrderView } from '../strategy/views.ts';
import type { OrderStreamEvent } from '../../domain/stream-events.ts';
import type { StrategySlot } from './options.ts';

/** A strategy sees the tracker's own (frozen, kept while unchanged) view of an order: it has every field of OrderView. */
function orderView(order: TrackedOrder): OrderView {
  return order;
}

export interface OrderFlowDeps {
  readonly tracker: OrderTracker;
  readonly portfolio: PortfolioPort;
  readonly counters: RunCounters;
  readonly log: Logger;
  readonly strategy: StrategySlot;
  readonly recorder: JournalRecorder | undefined;
  /** Orders found on the exchange that this run did not send: keep tracking them (default), or cancel them. */
  readonly unknownOrders: 'adopt' | 'cancel' | undefined;
  /** The intent gate: forgets ended orders. */
  readonly gate: { finished(clordIds: readonly string[]): void };
  /** The execution adapter: told when an order changed while something waits on one. */
  readonly adapter: { readonly hasWaiting: boolean; onOrderChanged(): void };
  /** The Reconciler: counts fills per account, reconciles after a snapshot. */
  readonly reconciler: { noteFill(account: string): void; reconcileNow(): void };
  /** Cancels an order the engine decides to cancel (approved by risk). */
  cancel(clordId: string): void;
}

export class OrderFlow {
  constructor(private readonly deps: OrderFlowDeps) {}

  /** One order-stream event (call inside an engine step). */
  onStreamEvent(event: OrderStreamEvent): void {
    if (event.type === 'connected') this.deps.counters.orderStreamConnects += 1;
    this.deps.tracker.onStreamEvent(event);
    if (event.type === 'snapshot') this.deps.reconciler.reconcileNow();
  }

  /** Subscribes to the tracker's fills, updates and issues (in that order). */
  subscribe(subscriptions: Subscription): void {
    const { tracker, log } = this.deps;
    subscriptions.add(tracker.fills$.subscribe((fill) => this.onFill(fill)));
    subscriptions.add(tracker.updates$.subscribe((update) => this.onUpdate(update)));
    subscriptions.add(tracker.issues$.subscribe((issue) => log.debug({ issue }, `order tracker: ${issue.kind}`)));
  }

  onFill(fill: Fill): void {
    const { counters, reconciler, portfolio, tracker, strategy } = this.deps;
    counters.fills += 1;
    reconciler.noteFill(fill.account);
    portfolio.applyFill(fill);
    const order = tracker.get(fill.clordId);
    const { clordId, account, symbol, side, qty, price, time } = fill;
    const view = { clordId, account, symbol, side, qty, price, time };
    strategy.runtime?.orderUpdate({ type: 'fill', fill: view, order: order ? orderView(order) : undefined });
  }

  onUpdate(update: OrderUpdate): void {
    const { recorder, gate, adapter, strategy } = this.deps;
    recorder?.onUpdate(update);
    if (isTerminal(update.order.state)) gate.finished(update.order.clordIds);
    if (adapter.hasWaiting) adapter.onOrderChanged();
    if (update.previousState === undefined && update.order.adopted) this.adopted(update.order);
    strategy.runtime?.orderUpdate({ type: 'order', order: orderView(update.order) });
  }

  /** The adopted-order policy: an order first seen on the exchange is counted, and cancelled when asked to. */
  private adopted(order: TrackedOrder): void {
    this.deps.counters.adopted += 1;
    if (this.deps.unknownOrders === 'cancel') this.deps.cancel(order.clordId);
  }
}
