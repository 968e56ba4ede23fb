/**
 * Lenient parsing of family A error bodies. The spec does not show them, so the client accepts every shape
 * it may meet and keeps what it can:
 *   {"error": {"code", "status", "message", "details"}}   (Google API style, as the simulator answers; a
 *                                                          `details[]` ErrorInfo's `reason` is kept)
 *   {"code", "message", "details"}                         (grpc-gateway style, as on the trading gateway)
 *   {"error": "invalid_client", "error_description": "..."} (OAuth style, from the token endpoint)
 *   any other JSON, or plain text                           (kept, truncated, as the message)
 * Text is truncated and scrubbed with the logger's redaction, so an echoed token never reaches an error.
 */
import { redactString } from '../../logging/redact.ts';
import { truncate } from '../transport/index.ts';

export interface FamilyAErrorBody {
  /** The exchange's error code (a gRPC status number, a name such as `INVALID_ARGUMENT`, or an OAuth code). */
  readonly code: string | number | undefined;
  /** A status name when the body carries one besides the code (e.g. `INVALID_ARGUMENT`). */
  readonly status: string | undefined;
  /** Human-readable text; the raw body (truncated) when nothing better was found. */
  readonly message: string;
  /** The stable `reason` of the first ErrorInfo in `details` (e.g. TOKEN_EXPIRED, SCOPE_MISSING), if any. */
  readonly reason?: string;
  /** Structured or textual details, passed through (scrubbed when text). */
  readonly details: unknown;
}

type Obj = Record<string, unknown>;

const isObj = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown, max = 300): string | undefined =>
  typeof value === 'string' ? redactString(truncate(value, max)) : undefined;
const codeOf = (value: unknown): string | number | undefined =>
  typeof value === 'number' && Number.isFinite(value)
    ? value
    : typeof value === 'string' && value !== ''
      ? truncate(value, 100)
      : undefined;

function scrubDetails(value: unknown): unknown {
  if (typeof value === 'string') return text(value, 500);
  if (value === undefined || value === null) return undefined;
  try {
    const json = JSON.stringify(value);
    return json.length > 2000 ? redactString(truncate(json, 2000)) : (JSON.parse(redactString(json)) as unknown);
  } catch {
    return undefined;
  }
}

function reasonOf(details: unknown): string | undefined {
  if (!Array.isArray(details)) return undefined;
  for (const item of details) if (isObj(item) && typeof item['reason'] === 'string') return text(item['reason'], 100);
  return undefined;
}

function fromFields(o: Obj): FamilyAErrorBody {
  const status = text(o['status'], 100);
  const reason = reasonOf(o['details']);
  return {
    code: codeOf(o['code']) ?? status,
    status,
    message: text(o['message']) ?? text(o['error_description']) ?? '',
    ...(reason === undefined ? {} : { reason }),
    details: scrubDetails(o['details']),
  };
}

/** The error body of a failed call (`details.body` of a TransportError), or undefined when it had none. */
export function parseFamilyAErrorBody(body: unknown): FamilyAErrorBody | undefined {
  if (body === undefined || body === null || body === '') return undefined;
  if (typeof body === 'string') return { code: undefined, status: undefined, message: text(body) ?? '', details: undefined };
  if (!isObj(body)) return { code: undefined, status: undefined, message: text(JSON.stringify(body)) ?? '', details: undefined };
  const inner = body['error'];
  if (isObj(inner)) return fromFields(inner);
  if (typeof inner === 'string') {
    return {
      code: codeOf(inner),
      status: undefined,
      message: text(body['error_description']) ?? text(body['message']) ?? '',
      details: undefined,
    };
  }
  if ('code' in body || 'message' in body) return fromFields(body);
  return { code: undefined, status: undefined, message: text(JSON.stringify(body)) ?? '', details: undefined };
}
