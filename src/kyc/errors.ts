/**
 * KYC webhook receiver errors: stable codes for what stops the receiver from starting or persisting.
 * A bad notification is not an error here: it is answered with 400 and the receiver keeps serving.
 */
import { TradebotError } from '../errors.ts';
import type { ErrorKind } from '../errors.ts';

export const KycErrorCode = {
  /** The TLS certificate or key file cannot be read or is not valid PEM. */
  TlsInvalid: 'KYC_TLS_INVALID',
  /** The TLS private key file is accessible to group or others; it must be mode 0600 (`chmod 600 <file>`). */
  TlsKeyPermissions: 'KYC_TLS_KEY_PERMISSIONS',
  /** The state file exists but cannot be read. */
  StateUnreadable: 'KYC_STATE_UNREADABLE',
  /** The state file is not a state file this version wrote (move it aside to start afresh). */
  StateCorrupt: 'KYC_STATE_CORRUPT',
  /** The state file could not be written (the notification was still emitted). */
  StateWriteFailed: 'KYC_STATE_WRITE_FAILED',
  /** The server could not listen (port in use, permission). */
  ListenFailed: 'KYC_LISTEN_FAILED',
  /** An `allowFrom` entry is neither an address nor a CIDR range. */
  AllowFromInvalid: 'KYC_ALLOW_FROM_INVALID',
  /** `exchange.kyc.webhook` is missing from the config, or `exchange.familyA` (needed to confirm notifications). */
  NotConfigured: 'KYC_NOT_CONFIGURED',
} as const;

export type KycErrorCode = (typeof KycErrorCode)[keyof typeof KycErrorCode];

const KIND: Record<KycErrorCode, ErrorKind> = {
  KYC_TLS_INVALID: 'config',
  KYC_TLS_KEY_PERMISSIONS: 'config',
  KYC_STATE_UNREADABLE: 'config',
  KYC_STATE_CORRUPT: 'config',
  KYC_STATE_WRITE_FAILED: 'internal',
  KYC_LISTEN_FAILED: 'config',
  KYC_NOT_CONFIGURED: 'config',
  KYC_ALLOW_FROM_INVALID: 'config',
};

export class KycError extends TradebotError {
  declare readonly code: KycErrorCode;

  constructor(code: KycErrorCode, message: string, options: { cause?: unknown; details?: Record<string, unknown> } = {}) {
    super(code, message, { kind: KIND[code], ...options });
    this.name = 'KycError';
  }
}

export function isKycError(value: unknown, code?: KycErrorCode): value is KycError {
  return value instanceof KycError && (code === undefined || value.code === code);
}
