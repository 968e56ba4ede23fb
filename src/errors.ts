/**
 * The project's error base: every error tradebot throws on purpose is a TradebotError with a stable
 * `code` (matched by tools and tests, never the message text) and a message that says what to fix.
 * Kinds tell callers whether a retry can help: connectivity errors are retryable, rejections are not.
 */

export type ErrorKind =
  'config' | 'validation' | 'connectivity' | 'rejection' | 'authentication' | 'permission' | 'rate-limited' | 'internal';

export interface TradebotErrorOptions {
  kind?: ErrorKind;
  cause?: unknown;
  details?: Record<string, unknown>;
}

export class TradebotError extends Error {
  readonly code: string;
  readonly kind: ErrorKind;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: string, message: string, options: TradebotErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'TradebotError';
    this.code = code;
    this.kind = options.kind ?? 'internal';
    this.details = options.details;
  }

  /** True when the same call may succeed if tried again (connectivity problems, rate limits). */
  get retryable(): boolean {
    return this.kind === 'connectivity' || this.kind === 'rate-limited';
  }
}

export function isTradebotError(value: unknown): value is TradebotError {
  return value instanceof TradebotError;
}

/** A short, secret-free description of any thrown value, for logs and CLI output. */
export function describeError(value: unknown): string {
  if (value instanceof TradebotError) return `${value.code}: ${value.message}`;
  if (value instanceof Error) return value.message;
  return String(value);
}
