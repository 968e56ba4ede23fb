/**
 * Simulated KYC: `verify` starts a verification for a firm's `externalId` (NOT_STARTED), which then moves
 * along its seeded schedule (OPEN, maybe ON_HOLD, CLOSED with ACCEPT / REJECT / REVIEW). On ACCEPT an
 * account is opened in the exchange (through the injected opener) and the notification carries its
 * `participantId` and `account`. Every status change is queued for the firm's webhook.
 *
 * Nothing moves by itself: `advance()` applies the steps due on the sim clock and sends the deliveries
 * due, and resolves when they have all been tried. `tradebot sim` calls it from a timer; tests move their
 * clock (to `nextDueAt()`, say) and call it, which makes the whole flow deterministic.
 */
import type { Logger } from 'pino';
import type { KycNotification, KycStatusInfo, KycVerifyRequest, KycWebhookResponse } from '../../domain/types/kyc.ts';
import { MAX_WEBHOOK_URL_LENGTH } from '../../domain/limits.ts';
import { invalidArgument } from '../http/errors.ts';
import type { SimKycConfig } from '../config.ts';
import { planVerification, SUB_STATUS, type KycStep } from './schedule.ts';
import { DeliveryQueue, type DeliveryStats } from './delivery-queue.ts';
import { WebhookClient } from './webhook-client.ts';
import { WebhookRegistry } from './webhook-registry.ts';

export interface KycPerson {
  email: string;
  firstName: string;
  lastName: string;
}

/** Opens the exchange account of an approved verification. */
export interface KycAccountOpener {
  open(firm: string, externalId: string, person: KycPerson, now: number): { participantId: string; account: string };
}

export interface KycServiceOptions {
  clock: { now(): number };
  settings: () => SimKycConfig;
  accounts: KycAccountOpener;
  /** PEM text of `sim.kyc.extraCaFile`, if set. */
  extraCa?: string | undefined;
  logger: Logger;
}

interface KycRecord {
  firm: string;
  person: KycPerson;
  info: KycStatusInfo;
  steps: KycStep[];
}

export const MAX_EXTERNAL_ID_LENGTH = 128;

export class KycService {
  private readonly records = new Map<string, KycRecord>();
  private readonly client: WebhookClient;
  private readonly webhooks: WebhookRegistry;
  private readonly deliveries: DeliveryQueue;
  private chain: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: KycServiceOptions) {
    this.client = new WebhookClient({ extraCa: options.extraCa, timeoutMs: () => options.settings().webhookTimeoutMs });
    this.webhooks = new WebhookRegistry(this.client, options.logger);
    this.deliveries = new DeliveryQueue(this.client, (firm) => this.webhooks.url(firm), options.clock, options.settings, options.logger);
  }

  get deliveryStats(): Readonly<DeliveryStats> {
    return this.deliveries.stats;
  }

  webhookUrl(firm: string): string | undefined {
    return this.webhooks.url(firm);
  }

  registerWebhook(firm: string, webhookUrl: string): Promise<KycWebhookResponse> {
    if (webhookUrl.trim() === '') throw invalidArgument('webhookUrl is required: an HTTPS URL');
    if (webhookUrl.length > MAX_WEBHOOK_URL_LENGTH)
      throw invalidArgument(`webhookUrl has ${webhookUrl.length} characters; the limit is ${MAX_WEBHOOK_URL_LENGTH} characters`);
    return this.webhooks.register(firm, webhookUrl.trim());
  }

  /** Starts a verification; calling it again for the same externalId returns the current status. */
  verify(firm: string, request: KycVerifyRequest): KycStatusInfo {
    const externalId = request.externalId.trim();
    if (externalId === '') throw invalidArgument('externalId is required');
    if (externalId.length > MAX_EXTERNAL_ID_LENGTH) throw invalidArgument(`externalId is longer than ${MAX_EXTERNAL_ID_LENGTH} characters`);
    for (const [field, limit] of [
      ['email', 254],
      ['firstName', 100],
      ['lastName', 100],
    ] as const) {
      if (request[field].length > limit)
        throw invalidArgument(`${field} has ${request[field].length} characters; the limit is ${limit} characters`);
    }
    const key = `${firm}\u0000${externalId}`;
    const existing = this.records.get(key);
    if (existing !== undefined) return existing.info;
    const now = this.options.clock.now();
    const record: KycRecord = {
      firm,
      person: { email: request.email, firstName: request.firstName, lastName: request.lastName },
      info: {
        externalId,
        decision: '',
        status: 'NOT_STARTED',
        subStatus: SUB_STATUS.NOT_STARTED,
        participantId: '',
        account: '',
        updateTime: now,
      },
      steps: planVerification(this.options.settings(), firm, externalId, now),
    };
    this.records.set(key, record);
    this.deliveries.enqueue(firm, notificationOf(record.info));
    this.options.logger.info({ firm, externalId }, 'KYC verification started');
    return record.info;
  }

  status(firm: string, externalId: string): KycStatusInfo | undefined {
    return this.records.get(`${firm}\u0000${externalId}`)?.info;
  }

  /** The earliest sim time at which a step or a delivery is due (undefined: nothing pending). */
  nextDueAt(): number | undefined {
    let next = this.deliveries.nextDueAt();
    for (const record of this.records.values()) {
      const step = record.steps[0];
      if (step !== undefined) next = next === undefined ? step.at : Math.min(next, step.at);
    }
    return next;
  }

  /** Applies due steps and sends due deliveries; calls are serialized. */
  advance(): Promise<void> {
    const run = this.chain.then(() => this.step());
    this.chain = run.catch(() => undefined);
    return run;
  }

  /** Runs `advance()` every `tickMs` of wall time (the CLI simulator); tests leave it off. */
  startTimer(): void {
    if (this.timer !== undefined) return;
    let busy = false;
    this.timer = setInterval(() => {
      if (busy) return;
      busy = true;
      this.advance()
        .catch((error: unknown) => this.options.logger.error({ err: error }, 'KYC advance failed'))
        .finally(() => {
          busy = false;
        });
    }, this.options.settings().tickMs);
    this.timer.unref();
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.chain;
    await this.client.close();
  }

  private async step(): Promise<void> {
    const now = this.options.clock.now();
    const due: { record: KycRecord; step: KycStep }[] = [];
    for (const record of this.records.values()) {
      while (record.steps[0] !== undefined && record.steps[0].at <= now) due.push({ record, step: record.steps.shift() as KycStep });
    }
    due.sort((a, b) => a.step.at - b.step.at);
    for (const { record, step } of due) this.apply(record, step);
    await this.deliveries.dispatchDue();
  }

  private apply(record: KycRecord, step: KycStep): void {
    let { participantId, account } = record.info;
    if (step.status === 'CLOSED' && step.decision === 'ACCEPT') {
      ({ participantId, account } = this.options.accounts.open(record.firm, record.info.externalId, record.person, step.at));
    }
    record.info = {
      ...record.info,
      status: step.status,
      decision: step.decision,
      subStatus: step.subStatus,
      participantId,
      account,
      updateTime: step.at,
    };
    this.options.logger.info(
      { firm: record.firm, externalId: record.info.externalId, status: step.status, decision: step.decision },
      'KYC status changed',
    );
    this.deliveries.enqueue(record.firm, notificationOf(record.info));
  }
}

function notificationOf(info: KycStatusInfo): KycNotification {
  return {
    externalId: info.externalId,
    decision: info.decision,
    status: info.status,
    subStatus: info.subStatus,
    participantId: info.participantId,
    account: info.account,
  };
}
