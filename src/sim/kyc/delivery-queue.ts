/**
 * Delivery of KYC notifications to each firm's registered webhook. Notifications are queued with a due
 * time on the sim clock and sent, in order, when `dispatchDue()` runs. A failed delivery (non-2xx, too
 * slow, unreachable) is retried with exponential backoff (initialBackoffMs x 2^(attempt-1), capped at
 * maxBackoffMs) until maxAttempts; a delivered one is sent a second time with `duplicateProbability`
 * (seeded), as the real service does, so receivers must deduplicate by `externalId` (+ status).
 * With no registered URL a notification is dropped.
 */
import type { Logger } from 'pino';
import type { Decimal } from '../../domain/decimal.ts';
import type { KycNotification } from '../../domain/types/kyc.ts';
import { seededRandom, type Random } from '../activity/random.ts';
import type { WebhookClient } from './webhook-client.ts';
import { urlOrigin } from './webhook-registry.ts';

export interface DeliverySettings {
  seed: number;
  duplicateProbability: Decimal;
  retry: { maxAttempts: number; initialBackoffMs: number; maxBackoffMs: number };
}

export interface DeliveryStats {
  /** HTTP requests made (attempts and duplicates). */
  attempts: number;
  delivered: number;
  duplicates: number;
  retriesScheduled: number;
  /** Given up after maxAttempts, or no URL registered. */
  dropped: number;
}

interface Delivery {
  id: number;
  firm: string;
  notification: KycNotification;
  attempt: number;
  dueAt: number;
}

export const DELIVERY_ID_HEADER = 'x-kyc-delivery-id';
export const DELIVERY_ATTEMPT_HEADER = 'x-kyc-delivery-attempt';

export function backoffMs(attempt: number, retry: DeliverySettings['retry']): number {
  return Math.min(retry.maxBackoffMs, retry.initialBackoffMs * 2 ** Math.max(0, attempt - 1));
}

export class DeliveryQueue {
  private readonly pending: Delivery[] = [];
  private readonly random: Random;
  private nextId = 1;
  readonly stats: DeliveryStats = { attempts: 0, delivered: 0, duplicates: 0, retriesScheduled: 0, dropped: 0 };

  constructor(
    private readonly client: WebhookClient,
    private readonly urlOf: (firm: string) => string | undefined,
    private readonly clock: { now(): number },
    private readonly settings: () => DeliverySettings,
    private readonly logger: Logger,
  ) {
    this.random = seededRandom(settings().seed ^ 0x5bd1e995);
  }

  enqueue(firm: string, notification: KycNotification): void {
    this.pending.push({ id: this.nextId++, firm, notification, attempt: 0, dueAt: this.clock.now() });
  }

  get size(): number {
    return this.pending.length;
  }

  nextDueAt(): number | undefined {
    let next: number | undefined;
    for (const d of this.pending) next = next === undefined ? d.dueAt : Math.min(next, d.dueAt);
    return next;
  }

  /** Sends every delivery due now, one after another; resolves when all have an outcome. */
  async dispatchDue(): Promise<void> {
    const now = this.clock.now();
    const due = this.pending.filter((d) => d.dueAt <= now).sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
    for (const delivery of due) this.pending.splice(this.pending.indexOf(delivery), 1);
    for (const delivery of due) await this.deliver(delivery);
  }

  private async send(url: string, delivery: Delivery) {
    this.stats.attempts += 1;
    return this.client.postJson(url, delivery.notification, {
      [DELIVERY_ID_HEADER]: String(delivery.id),
      [DELIVERY_ATTEMPT_HEADER]: String(delivery.attempt),
    });
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const url = this.urlOf(delivery.firm);
    const meta = {
      firm: delivery.firm,
      deliveryId: delivery.id,
      externalId: delivery.notification.externalId,
      status: delivery.notification.status,
    };
    if (url === undefined) {
      this.stats.dropped += 1;
      this.logger.debug(meta, 'KYC notification dropped: no webhook registered');
      return;
    }
    delivery.attempt += 1;
    const outcome = await this.send(url, delivery);
    const settings = this.settings();
    if (outcome.ok) {
      this.stats.delivered += 1;
      if (this.random.chance(settings.duplicateProbability.toNumber())) {
        this.stats.duplicates += 1;
        await this.send(url, delivery);
      }
      return;
    }
    if (delivery.attempt >= settings.retry.maxAttempts) {
      this.stats.dropped += 1;
      this.logger.warn(
        { ...meta, origin: urlOrigin(url), attempts: delivery.attempt, failure: outcome.message },
        'KYC notification dropped after the last attempt',
      );
      return;
    }
    this.stats.retriesScheduled += 1;
    delivery.dueAt = this.clock.now() + backoffMs(delivery.attempt, settings.retry);
    this.pending.push(delivery);
    this.logger.debug(
      { ...meta, attempt: delivery.attempt, retryAt: delivery.dueAt, failure: outcome.message },
      'KYC notification delivery failed; retry scheduled',
    );
  }
}
