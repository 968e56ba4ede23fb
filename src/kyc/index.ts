/**
 * KYC webhook receiver: HTTPS endpoint for the exchange's KYC notifications, deduplicated and persisted,
 * emitted as an Observable.
 *
 * Modules:
 * - receiver.ts       startKycReceiver: composes the pieces below from options (files, port, state file)
 * - webhook-server.ts the node:https server: validation, immediate 2xx, 400 for bad bodies
 * - confirmation.ts   the authenticity check: each notification confirmed by GET /v1/kyc/status
 * - processor.ts      batched handling of the confirmed facts: dedupe, persist, emit (KycEvent)
 * - state-store.ts    what was handled per user, appended to the state file (batched, fsynced)
 * - state-file.ts     the state file's format (append-only JSON lines; versions 1 and 2 still load)
 * - errors.ts         KYC_* error codes
 */
export { allowList, startKycReceiver } from './receiver.ts';
export { Confirmer, familyAConfirmation } from './confirmation.ts';
export type { ConfirmerOptions, KycConfirm } from './confirmation.ts';
export type { KycReceiver, KycReceiverOptions } from './receiver.ts';
export type { KycEvent, KycStats } from './processor.ts';
export { KycStateStore, sameFacts, STATE_VERSION } from './state-store.ts';
export type { RecordedNotification } from './state-store.ts';
export { MAX_BODY_BYTES, parseNotification } from './webhook-server.ts';
export { KycError, KycErrorCode, isKycError } from './errors.ts';
