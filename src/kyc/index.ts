/**
 * KYC webhook receiver: HTTPS endpoint for the exchange's KYC notifications, deduplicated and persisted,
 * emitted as an Observable.
 *
 * Modules:
 * - receiver.ts       startKycReceiver: composes the pieces below from options (files, port, state file)
 * - webhook-server.ts the node:https server: validation, immediate 2xx, 400 for bad bodies
 * - processor.ts      in-order handling after the answer: dedupe, persist, emit (KycEvent)
 * - state-store.ts    last notification per user in a JSON file, written atomically
 * - errors.ts         KYC_* error codes
 */
export { startKycReceiver } from './receiver.ts';
export type { KycReceiver, KycReceiverOptions } from './receiver.ts';
export type { KycEvent, KycStats } from './processor.ts';
export { KycStateStore, sameFacts, STATE_VERSION } from './state-store.ts';
export type { RecordedNotification } from './state-store.ts';
export { MAX_BODY_BYTES, parseNotification } from './webhook-server.ts';
export { KycError, KycErrorCode, isKycError } from './errors.ts';
