/**
 * Secret redaction, applied to every log record and usable on any report or error payload.
 * Two nets: values under keys whose names say "secret" are replaced whole, and strings anywhere that look
 * like a JWT, a PEM private key or an otpauth:// URL are masked even when they hide under an innocent key or
 * inside a message. Neither net ever throws; cycles are cut.
 *
 * The key rule works on the name's words, not the exact name: the key is split at camelCase humps, `_`, `-`,
 * `.` and spaces (`privateKeyPEM` -> private key pem, `x-api-key` -> x api key), and it is a secret when
 *   - a word is a secret word: secret(s), password, passwd, passphrase, pwd, pass, token(s), otp, totp, hotp,
 *     otpauth, seed, jwt, bearer, authorization, assertion, cookie(s), credential(s), signature, apikey; or
 *   - two adjacent words name a key or a code: private / api / secret / signing / access / session /
 *     encryption / hmac / master / client key, mfa / auth / verification / otp code, enrollment / otpauth url
 *     (it carries the TOTP secret);
 * UNLESS the secret words are followed by a word that says the value is only about the secret, not the secret
 * itself: type, kind, ttl, seconds, ms, expiry, expires, expiration, lifetime, length, count, size, url, uri,
 * endpoint, file, path, dir, id, enabled, required, algorithm... (see METADATA); an enrollment / otpauth URL
 * stays a secret. So `signingSecret`, `otpSeed`, `refresh_token`, `privateKeyPem`, `clientSecret` are masked
 * while `tokenType`, `token_type`, `accessTokenTtlSeconds`, `privateKeyFile`, `mfaEnabled` and `expires_in`
 * stay readable. Any `seed` is masked, a PRNG seed such as `activity.seed` included: it may be an OTP seed, and
 * over-masking costs a little debugging where under-masking leaks a credential.
 */

export const REDACTED = '[REDACTED]';

/** Words that make a key a secret wherever they appear in its name. */
const SECRET_WORDS = new Set([
  'secret',
  'secrets',
  'password',
  'passwords',
  'passwd',
  'passphrase',
  'pwd',
  'pass',
  'token',
  'tokens',
  'otp',
  'totp',
  'hotp',
  'otpauth',
  'seed',
  'jwt',
  'bearer',
  'authorization',
  'assertion',
  'cookie',
  'cookies',
  'credential',
  'credentials',
  'signature',
  'apikey',
]);

/** `<first> <second>` word pairs that name a secret (`privateKey`, `x-api-key`, `mfaCode`). */
const SECRET_PAIRS: Readonly<Record<string, ReadonlySet<string>>> = {
  key: new Set(['private', 'api', 'secret', 'signing', 'access', 'session', 'encryption', 'hmac', 'master', 'client']),
  code: new Set(['mfa', 'auth', 'verification', 'otp']),
  url: new Set(['enrollment', 'otpauth']),
};

/** Words after the secret part that make the value metadata about the secret (its type, lifetime, file...). */
const METADATA = new Set([
  'type',
  'types',
  'kind',
  'ttl',
  'seconds',
  'secs',
  'ms',
  'millis',
  'minutes',
  'expiry',
  'expires',
  'expiration',
  'lifetime',
  'length',
  'len',
  'count',
  'size',
  'url',
  'uri',
  'endpoint',
  'file',
  'path',
  'dir',
  'id',
  'ids',
  'enabled',
  'required',
  'policy',
  'rules',
  'strength',
  'hint',
  'hints',
  'name',
  'format',
  'algorithm',
  'alg',
]);

/** The lower-case words of a key: split at camelCase humps, `_`, `-`, `.` and whitespace. */
export function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .filter((word) => word !== '')
    .map((word) => word.toLowerCase());
}

/** True when a value under `key` must never be shown (see the module header for the rule). */
export function isSecretKey(key: string): boolean {
  const words = keyWords(key);
  let lastSecret = -1;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const pair = i > 0 ? SECRET_PAIRS[word] : undefined;
    if (SECRET_WORDS.has(word) || (pair !== undefined && pair.has(words[i - 1] as string))) lastSecret = i;
  }
  if (lastSecret < 0) return false;
  const after = words.slice(lastSecret + 1);
  return !after.some((word) => METADATA.has(word));
}

const PEM_BLOCK = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g;
const JWT = /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g;
const OTPAUTH_URL = /otpauth:\/\/[^\s"']+/g;
const BEARER = /\bBearer\s+[A-Za-z0-9._~+/-]+=*/g;

/** Masks secret-looking substrings (JWTs, PEM private keys, otpauth URLs, bearer credentials). */
export function redactString(text: string): string {
  if (text.length < 16) return text;
  return text.replace(PEM_BLOCK, REDACTED).replace(JWT, REDACTED).replace(OTPAUTH_URL, REDACTED).replace(BEARER, `Bearer ${REDACTED}`);
}

/**
 * Deep copy of `value` with secrets masked. A non-plain object with a `toJSON` (Decimal, Date, the engine's
 * order views) is logged as what it gives (a Decimal as its digits, an order as its fields); one without, as
 * its own `toString` when it has one, else as its own enumerable fields (never "[object Object]").
 */
export function redactSecrets(value: unknown, seen: WeakSet<object> = new WeakSet()): unknown {
  if (typeof value === 'string') return redactString(value);
  if (value === null || typeof value !== 'object') return value;
  // `seen` holds the objects on the path from the root: a cycle is cut, an object met twice (one Decimal as an
  // order's qty and leaves) is shown twice
  if (seen.has(value)) return '[Circular]';
  seen.add(value);
  try {
    return redactObject(value, seen);
  } finally {
    seen.delete(value);
  }
}

function redactObject(value: object, seen: WeakSet<object>): unknown {
  if (Array.isArray(value)) return value.map((item: unknown) => redactSecrets(item, seen));
  if (value instanceof Error) return redactError(value, seen);
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    if (value instanceof Map) return redactSecrets(Object.fromEntries(value), seen);
    if (value instanceof Set) return redactSecrets([...value], seen);
    return redactInstance(value, seen);
  }
  return redactPlain(value, seen);
}

function redactInstance(value: object, seen: WeakSet<object>): unknown {
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    try {
      const json: unknown = toJSON.call(value);
      return json === value ? redactPlain(value, seen) : redactSecrets(json, seen);
    } catch {
      return '[unserializable]';
    }
  }
  if ((value as { toString?: unknown }).toString !== Object.prototype.toString) return redactString(String(value));
  return redactPlain(value, seen);
}

function redactPlain(value: object, seen: WeakSet<object>): Record<string, unknown> {
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
