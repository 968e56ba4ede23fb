/**
 * Secret redaction, applied to every log record and usable on any report or error payload.
 * Two nets: values under keys whose names say "secret" (password, token, privateKey, otp, mfaSecret,
 * authorization, client_assertion, ...) are replaced whole, and strings anywhere that look like a JWT,
 * a PEM private key or an otpauth:// URL are masked even when they hide under an innocent key or inside
 * a message. Neither net ever throws; cycles are cut.
 */

export const REDACTED = '[REDACTED]';

/** Key names whose values are secrets, whatever their case or separator (snake_case, camelCase, kebab). */
const SECRET_KEY =
  /^(?:pass(?:word|wd|phrase)?|old_?password|new_?password|secret|client_?secret|mfa_?secret|otp(?:_?secret|_?seed)?|seed|totp|token|tokens|access_?token|refresh_?token|id_?token|registration_?token|bearer|authorization|proxy_?authorization|cookie|set_?cookie|x_?api_?key|api_?key|private_?key|private_?key_?pem|client_?assertion|assertion|jwt|enrollment_?url|signature)$/i;

const PEM_BLOCK = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const OTPAUTH_URL = /otpauth:\/\/[^\s"']+/g;
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/-]+=*/g;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key.replace(/-/g, '_'));
}

/** Masks secret-looking substrings (JWTs, PEM private keys, otpauth URLs, bearer credentials). */
export function redactString(text: string): string {
  if (text.length < 16) return text;
  return text
    .replace(PEM_BLOCK, REDACTED)
    .replace(JWT, REDACTED)
    .replace(OTPAUTH_URL, REDACTED)
    .replace(BEARER, `Bearer ${REDACTED}`);
}

/** Deep copy of `value` with secrets masked. Leaves non-plain objects (Decimal, Date) as their string forms. */
export function redactSecrets(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return value;
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  if (Array.isArray(value)) return value.map((item) => redactSecrets(item, seen));
  if (value instanceof Error) return redactError(value, seen);
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    if (value instanceof Map) return redactSecrets(Object.fromEntries(value), seen);
    if (value instanceof Set) return redactSecrets([...value], seen);
    return redactString(String(value));
  }
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = isSecretKey(key) && inner !== undefined && inner !== '' ? REDACTED : redactSecrets(inner, seen);
  }
  return out;
}

function redactError(error: Error, seen: WeakSet<object>): Record<string, unknown> {
  const out: Record<string, unknown> = { type: error.name, message: redactString(error.message) };
  const code = (error as { code?: unknown }).code;
  if (code !== undefined) out['code'] = code;
  const details = (error as { details?: unknown }).details;
  if (details !== undefined) out['details'] = redactSecrets(details, seen);
  if (error.stack !== undefined) out['stack'] = redactString(error.stack);
  if (error.cause !== undefined) out['cause'] = redactSecrets(error.cause, seen);
  return out;
}
