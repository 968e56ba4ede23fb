/**
 * How the execution adapter queues a replace (adapter.ts): not sent for an order that is finished or UNKNOWN,
 * made to wait on the order's record while the order is not acknowledged, and merged with an earlier replace
 * of the same order still queued or waiting (the earlier one failed as REPLACE_MERGED, its other changes kept).
 */
import type { Logger } from 'pino';
import { standingOf } from '../orders/index.ts';
import type { Intent } from '../intents.ts';
import { ExecutionErrorCode, notSent } from './errors.ts';
import type { ExecutionLedger, ReplaceTerms } from './ledger.ts';
import type { SendQueue } from './send-queue.ts';

export class ReplaceQueueing {
  constructor(
    private readonly ledger: ExecutionLedger,
    private readonly sendQueue: SendQueue,
    private readonly log: Logger,
  ) {}

  /**
   * `tellLedger`: record the replace request (false when it was recorded when the replace started waiting).
   * Not sent for an order already finished (a replace that waited for the ack of an order that filled
   * meanwhile) or UNKNOWN (a cancel or replace of it was just refused as too late: it has almost surely
   * ended and its execution is on the way): the exchange would only refuse it.
   */
  queue(replace: ReplaceTerms, tellLedger = true, intent?: Intent): void {
    const { ledger } = this;
    const orderId = ledger.orderIdOf(replace.clordId);
    const symbol = ledger.symbolOf(replace.clordId);
    if (symbol === undefined) return;
    const state = ledger.stateOf(replace.clordId);
    if (standingOf(state) === 'finished' || state === 'UNKNOWN') {
      this.log.debug({ clordId: replace.clordId, state }, 'replace not sent: the order is finished or its state is unknown');
      if (!tellLedger)
        ledger.requestFailed?.(
          replace.clordId,
          'replace',
          notSent(
            ExecutionErrorCode.ORDER_NOT_WORKING,
            `replace of ${replace.clordId} not sent: the order is ${state ?? 'no longer tracked'}`,
            { clordId: replace.clordId },
          ),
        );
      return;
    }
    if (orderId === undefined) {
      this.defer(replace, tellLedger);
      return;
    }
    // a replace of the order still queued (not sent) is superseded by this one, which keeps its other changes
    const earlier = tellLedger ? this.sendQueue.findReplace(orderId) : undefined;
    let terms = replace;
    if (earlier !== undefined) {
      terms = {
        ...replace,
        clordId: earlier.origClordId,
        price: replace.price ?? earlier.request.price,
        qty: replace.qty ?? earlier.request.qty,
      };
      const error = notSent(
        ExecutionErrorCode.REPLACE_MERGED,
        `replace ${earlier.request.clordId} of ${earlier.origClordId} merged into the later replace ${replace.newClordId} ` +
          'before it was sent',
        { clordId: earlier.origClordId, newClordId: earlier.request.clordId, mergedInto: replace.newClordId },
      );
      this.sendQueue.removeReplace(orderId);
      ledger.requestFailed?.(earlier.origClordId, 'replace', error);
    }
    if (tellLedger) ledger.replaceRequested(terms);
    const request = { orderId, symbol, clordId: terms.newClordId, qty: terms.qty, price: terms.price };
    this.sendQueue.add({ kind: 'replace', replace: { origClordId: terms.clordId, request }, intent });
  }

  /**
   * A replace of an order not acknowledged yet waits on the order's record. A later replace (by any id of
   * the order) takes over an earlier waiting one, keeping the changes it does not make itself, and the
   * earlier one is failed as merged.
   */
  private defer(replace: ReplaceTerms, tellLedger: boolean): void {
    const { ledger } = this;
    const earlierOf = ledger.waitingReplaceOf(replace.clordId);
    const earlier = earlierOf === undefined ? undefined : ledger.pendingReplaceOf(earlierOf);
    let merged = replace;
    if (earlierOf !== undefined && earlier !== undefined) {
      merged = { ...replace, clordId: earlierOf, price: replace.price ?? earlier.price, qty: replace.qty ?? earlier.qty };
      ledger.requestFailed?.(
        earlierOf,
        'replace',
        notSent(
          ExecutionErrorCode.REPLACE_MERGED,
          `replace ${earlier.clordId} of ${earlierOf} merged into the later replace ${replace.newClordId}: ` +
            'one replace is sent once the order is acknowledged',
          { clordId: earlierOf, newClordId: earlier.clordId, mergedInto: replace.newClordId },
        ),
      );
    }
    if (tellLedger) ledger.replaceRequested(merged);
    ledger.deferReplace(merged.clordId, merged.clordId);
  }
}
