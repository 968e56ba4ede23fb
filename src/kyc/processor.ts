/**
 * Handles KYC notifications after the exchange confirmed them (confirmation.ts) and the HTTP answer went out.
 * It acts on the exchange's facts, never on the notification's claims: a notification whose claims differ is
 * counted as unconfirmed and logged, one for a user the exchange does not know is dropped. The confirmed facts
 * are handled in batches, in the order they were confirmed: duplicates (facts already handled for the user) and
 * stale repeats (a late answer about an earlier step, e.g. OPEN after CLOSED: logged, never emitted, so a
 * consumer cannot be moved back) are dropped; the rest are recorded, the batch persisted with one append and
 * one fdatasync, and then emitted on `events$`. Unknown statuses are logged and passed on like any other. A
 * failed state write is logged and the batch still emitted (at-least-once: a restart may then repeat it).
 */
import { Subject } from 'rxjs';
import type { Observable } from 'rxjs';
import type { Logger } from 'pino';
import { isKnownKycStatus } from '../domain/index.ts';
import type { KycNotification } from '../domain/index.ts';
import { sameFacts, type KycStateStore, type RecordedNotification } from './state-store.ts';
import type { StateLine } from './state-file.ts';

export interface KycEvent {
  /** The facts the exchange confirmed (what the notification prompted the receiver to look up). */
  readonly notification: KycNotification;
  /** Local time the notification arrived, ms since the epoch. */
  readonly receivedAt: number;
  /** False for a status outside NOT_STARTED, OPEN, ON_HOLD, CLOSED (passed on unchanged). */
  readonly knownStatus: boolean;
  /** The user's previous recorded notification, if any. */
  readonly previous: RecordedNotification | undefined;
}

export interface KycStats {
  /** Valid notifications accepted (answered 2xx). */
  readonly received: number;
  readonly duplicates: number;
  /** Late answers about an earlier step of the flow (logged, not emitted). */
  readonly stale: number;
  readonly emitted: number;
  /** Bodies refused with 4xx (sources outside `allowFrom` included). */
  readonly invalid: number;
  /** Notifications whose claims the exchange did not confirm (different facts, or a user it does not know). */
  readonly unconfirmed: number;
  /** Notifications answered 503 because the exchange could not be asked (it retries them). */
  readonly confirmFailures: number;
  readonly persistFailures: number;
  /** Appends to the state file (one write and one fdatasync each, for a batch of notifications). */
  readonly stateWrites: number;
}

interface Pending {
  readonly facts: KycNotification;
  readonly receivedAt: number;
}

export class KycProcessor {
  private readonly subject = new Subject<KycEvent>();
  private tail: Promise<void> = Promise.resolve();
  private pending: Pending[] = [];
  private counts = { received: 0, duplicates: 0, stale: 0, emitted: 0, invalid: 0, unconfirmed: 0, confirmFailures: 0, persistFailures: 0 };

  constructor(
    private readonly store: KycStateStore,
    private readonly logger: Logger,
  ) {}

  get events$(): Observable<KycEvent> {
    return this.subject.asObservable();
  }

  get stats(): KycStats {
    return { ...this.counts, stateWrites: this.store.writes };
  }

  countInvalid(): void {
    this.counts.invalid++;
  }

  countConfirmFailure(): void {
    this.counts.confirmFailures++;
  }

  /**
   * Queues a notification with the exchange's answer about it (`confirmed`: undefined when the exchange knows
   * no such verification); returns at once.
   */
  accept(claimed: KycNotification, confirmed: KycNotification | undefined, receivedAt: number): void {
    this.counts.received++;
    const fields = { externalId: claimed.externalId, status: claimed.status, decision: claimed.decision };
    if (confirmed === undefined) {
      this.counts.unconfirmed++;
      this.logger.warn(fields, 'KYC notification for a verification the exchange does not know: dropped (forged or misdirected)');
      return;
    }
    if (!sameFacts(claimed, confirmed) || confirmed.externalId !== claimed.externalId) {
      this.counts.unconfirmed++;
      this.logger.warn(
        { ...fields, confirmedStatus: confirmed.status, confirmedDecision: confirmed.decision },
        "KYC notification not confirmed by the exchange: the exchange's own facts are used instead",
      );
    }
    this.pending.push({ facts: { ...confirmed, externalId: claimed.externalId }, receivedAt });
    if (this.pending.length === 1) this.tail = this.tail.then(() => this.drain());
  }

  /** Resolves once every notification accepted so far has been handled. */
  idle(): Promise<void> {
    return this.tail;
  }

  /** Waits for the queue, then completes `events$` and closes the state file. */
  async close(): Promise<void> {
    await this.idle();
    this.subject.complete();
    await this.store.close();
  }

  /** Handles everything queued so far as one batch: one append for all of it, then the events. */
  private async drain(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    const lines: StateLine[] = [];
    const events: KycEvent[] = [];
    for (const { facts, receivedAt } of batch) {
      const fields = { externalId: facts.externalId, status: facts.status, decision: facts.decision, subStatus: facts.subStatus };
      const verdict = this.store.classify(facts);
      if (verdict === 'duplicate') {
        this.counts.duplicates++;
        this.logger.debug(fields, 'duplicate KYC notification dropped');
        continue;
      }
      const previous = this.store.last(facts.externalId);
      if (verdict === 'stale') {
        this.counts.stale++;
        lines.push(this.store.remember(facts, receivedAt));
        this.logger.warn(
          { ...fields, latestStatus: previous?.status, latestDecision: previous?.decision },
          'stale KYC notification (an earlier step than the latest recorded) dropped',
        );
        continue;
      }
      lines.push(this.store.record(facts, receivedAt));
      const knownStatus = isKnownKycStatus(facts.status);
      if (!knownStatus) this.logger.warn(fields, `unknown KYC status ${JSON.stringify(facts.status)} passed on as-is`);
      events.push({ notification: facts, receivedAt, knownStatus, previous });
    }
    try {
      await this.store.append(lines);
    } catch (error) {
      this.counts.persistFailures++;
      this.logger.error({ err: error, notifications: lines.length }, 'KYC state not saved; the notifications are still passed on');
    }
    for (const event of events) {
      this.counts.emitted++;
      this.subject.next(event);
    }
  }
}
