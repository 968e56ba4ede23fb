/**
 * Handles accepted KYC notifications after the HTTP answer has gone out: one at a time, in arrival order,
 * it drops duplicates (facts already handled for the user) and stale repeats (a late retry of an earlier
 * step, e.g. OPEN after CLOSED: logged, never emitted, so a consumer cannot be moved back), records and
 * persists the rest, and emits them on `events$`. Unknown statuses are logged and passed on like any other. A failed state
 * write is logged and the notification still emitted (at-least-once: a restart may then repeat it).
 */
import { Subject } from 'rxjs';
import type { Observable } from 'rxjs';
import type { Logger } from 'pino';
import { isKnownKycStatus } from '../domain/index.ts';
import type { KycNotification } from '../domain/index.ts';
import type { KycStateStore, RecordedNotification } from './state-store.ts';

export interface KycEvent {
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
  /** Late retries of an earlier step of the flow (logged, not emitted). */
  readonly stale: number;
  readonly emitted: number;
  /** Bodies refused with 4xx. */
  readonly invalid: number;
  readonly persistFailures: number;
}

export class KycProcessor {
  private readonly subject = new Subject<KycEvent>();
  private tail: Promise<void> = Promise.resolve();
  private counts = { received: 0, duplicates: 0, stale: 0, emitted: 0, invalid: 0, persistFailures: 0 };

  constructor(
    private readonly store: KycStateStore,
    private readonly logger: Logger,
  ) {}

  get events$(): Observable<KycEvent> {
    return this.subject.asObservable();
  }

  get stats(): KycStats {
    return { ...this.counts };
  }

  countInvalid(): void {
    this.counts.invalid++;
  }

  /** Queues a validated notification; returns at once. */
  accept(notification: KycNotification, receivedAt: number): void {
    this.counts.received++;
    this.tail = this.tail.then(() => this.process(notification, receivedAt));
  }

  /** Resolves once every notification accepted so far has been handled. */
  idle(): Promise<void> {
    return this.tail;
  }

  /** Waits for the queue, then completes `events$`. */
  async close(): Promise<void> {
    await this.idle();
    this.subject.complete();
  }

  private async process(notification: KycNotification, receivedAt: number): Promise<void> {
    const fields = {
      externalId: notification.externalId,
      status: notification.status,
      decision: notification.decision,
      subStatus: notification.subStatus,
    };
    const verdict = this.store.classify(notification);
    if (verdict === 'duplicate') {
      this.counts.duplicates++;
      this.logger.debug(fields, 'duplicate KYC notification dropped');
      return;
    }
    const previous = this.store.last(notification.externalId);
    if (verdict === 'stale') {
      this.counts.stale++;
      this.store.remember(notification);
      this.logger.warn(
        { ...fields, latestStatus: previous?.status, latestDecision: previous?.decision },
        'stale KYC notification (an earlier step than the latest recorded) dropped',
      );
      await this.save(fields, 'stale KYC notification not remembered');
      return;
    }
    this.store.record(notification, receivedAt);
    await this.save(fields, 'KYC state not saved; the notification is still passed on');
    const knownStatus = isKnownKycStatus(notification.status);
    if (!knownStatus) this.logger.warn(fields, `unknown KYC status ${JSON.stringify(notification.status)} passed on as-is`);
    this.counts.emitted++;
    this.subject.next({ notification, receivedAt, knownStatus, previous });
  }

  /** Persists the store; a failure is logged and counted, never thrown (the queue goes on). */
  private async save(fields: Record<string, string>, failure: string): Promise<void> {
    try {
      await this.store.save();
    } catch (error) {
      this.counts.persistFailures++;
      this.logger.error({ err: error, ...fields }, failure);
    }
  }
}
