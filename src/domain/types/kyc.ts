/**
 * Domain types of KYC (family A, camelCase): the webhook notification, the status resource (our
 * design: the notification's fields plus an update time), webhook registration and verification start.
 */
import type { KycDecision, KycStatus } from '../enums.ts';
import type { EpochMs } from '../time.ts';

export interface KycNotification {
  /** The user id given when KYC started; the deduplication key for repeated notifications. */
  readonly externalId: string;
  readonly decision: KycDecision;
  /** Any string: unknown statuses are kept as-is (the receiver must cope with any value). */
  readonly status: KycStatus;
  readonly subStatus: string;
  /** `firms/<firm_id>/users/<user_id>`, populated after approval. */
  readonly participantId: string;
  /** `firms/<firm_id>/accounts/<account_id>`, populated after approval. */
  readonly account: string;
}

export interface KycStatusInfo extends KycNotification {
  readonly updateTime: EpochMs | undefined;
}

export interface KycWebhookRequest {
  /** HTTPS URL (checked by the caller / server, not by the decoder). */
  readonly webhookUrl: string;
}

export interface KycWebhookResponse {
  readonly validated: boolean;
  readonly message: string;
}

/** POST /v1/kyc/verify (payload not shown: our design). */
export interface KycVerifyRequest {
  readonly externalId: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
}
