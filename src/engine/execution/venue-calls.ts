/**
 * The execution adapter's venue calls: one insert, cancel or replace list call (the adapter has cut the lists
 * to at most 20) or one cross, each answer reported to the ledger (order ids acknowledge inserted orders and
 * cross legs; a failed call marks its orders as not sent, or no longer pending their cancel or replace), and
 * every call tracked until it settles (`idle`). Exchange rejections are logged as one info line, other
 * failures as warnings with the error.
 */
import type { Logger } from 'pino';
import { MAX_LIST_REQUESTS } from '../../domain/limits.ts';
import { describeError, isTradebotError } from '../../errors.ts';
import type { Venue, VenueCancelRequest, VenueCrossRequest, VenueOrderRequest, VenueReplaceRequest } from '../venue.ts';
import type { ExecutionLedger } from './ledger.ts';
import { RenewingSet } from '../../util/renewing-collections.ts';

/** A replace ready to send: `origClordId` is the order's clordId before the replace. */
export type QueuedReplace = { readonly origClordId: string; readonly request: VenueReplaceRequest };

export interface VenueCallsOptions {
  readonly venue: Venue;
  readonly ledger: ExecutionLedger;
  readonly log: Logger;
  readonly onSent?: ((kind: 'insert' | 'cancel' | 'replace' | 'cross', count: number, clordIds?: readonly string[]) => void) | undefined;
  /** An answer named the order's exchange id (after the ledger was told). */
  readonly acknowledged: (clordId: string) => void;
}

/** Exchange rejections are expected (a fill raced a cancel): one line; anything else keeps the error. */
function logFailure(log: Logger, what: string, error: unknown, fields: Record<string, unknown> = {}): void {
  if (isTradebotError(error) && (error.kind === 'rejection' || error.kind === 'validation')) {
    log.info({ ...fields, code: error.code }, `${what} refused by the exchange: ${describeError(error)}`);
  } else {
    log.warn({ ...fields, err: error }, `${what} failed: ${describeError(error)}`);
  }
}

export class VenueCalls {
  private readonly inFlight = new RenewingSet<Promise<unknown>>();

  constructor(private readonly options: VenueCallsOptions) {}

  /** Resolves when no venue call is in flight. */
  async idle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  inserts(batch: readonly VenueOrderRequest[]): void {
    const { venue, ledger, log } = this.options;
    this.track(
      venue.insertOrders(batch).then(
        (orderIds) => {
          this.acknowledge(batch, orderIds);
          this.options.onSent?.(
            'insert',
            batch.length,
            batch.map((r) => r.clordId),
          );
        },
        (error: unknown) => {
          logFailure(log, 'insert', error, { count: batch.length });
          for (const request of batch) ledger.sendFailed(request.clordId, error);
        },
      ),
    );
  }

  /** Cancels, as list calls of at most 20. */
  cancels(requests: readonly VenueCancelRequest[]): void {
    const { venue, log, ledger } = this.options;
    for (let i = 0; i < requests.length; i += MAX_LIST_REQUESTS) {
      const batch = requests.slice(i, i + MAX_LIST_REQUESTS);
      // the ledger keeps that a cancel call is on the wire, so the order is not cancelled a second time meanwhile
      for (const request of batch) ledger.cancelSent(request.clordId);
      this.track(
        venue
          .cancelOrders(batch)
          .then(
            () => this.options.onSent?.('cancel', batch.length),
            (error: unknown) => {
              logFailure(log, 'cancel', error, { count: batch.length });
              for (const request of batch) ledger.requestFailed?.(request.clordId, 'cancel', error);
            },
          )
          .finally(() => {
            for (const request of batch) ledger.cancelAnswered(request.clordId);
          }),
      );
    }
  }

  /** One cancel_replace_order(_list) call; when it fails, its orders are no longer pending those replaces. */
  replaces(batch: readonly QueuedReplace[]): void {
    const { venue, ledger, log } = this.options;
    this.track(
      venue.replaceOrders(batch.map((r) => r.request)).then(
        () => this.options.onSent?.('replace', batch.length),
        (error: unknown) => {
          logFailure(log, 'replace', error, { count: batch.length, clordId: batch[0]?.origClordId });
          for (const r of batch) ledger.requestFailed?.(r.origClordId, 'replace', error);
        },
      ),
    );
  }

  /** One cross; its answer names both legs' order ids (buy, sell), which acknowledge them. */
  cross(request: VenueCrossRequest): void {
    const { venue, ledger, log } = this.options;
    const legs = [request.buy, request.sell];
    this.track(
      venue.cross(request).then(
        (orderIds) => {
          this.acknowledge(legs, orderIds);
          this.options.onSent?.('cross', 1, [request.buy.clordId]);
        },
        (error: unknown) => {
          logFailure(log, 'cross', error, { crossId: request.crossId });
          for (const leg of legs) ledger.sendFailed(leg.clordId, error);
        },
      ),
    );
  }

  private acknowledge(requests: readonly VenueOrderRequest[], orderIds: readonly string[]): void {
    requests.forEach((request, i) => {
      const orderId = orderIds[i];
      if (orderId === undefined || orderId === '') return;
      this.options.ledger.acknowledged(request.clordId, orderId);
      this.options.acknowledged(request.clordId);
    });
  }

  private track<T>(promise: Promise<T>): void {
    const tracked = promise.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }
}
