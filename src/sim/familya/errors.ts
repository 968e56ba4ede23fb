/**
 * Error shapes of the simulator's family A servers. The `/v1` API answers every failure with
 * `{"error": {"code": "<gRPC status name>", "status": <HTTP status>, "message": "...", "details": [...]}}`,
 * where `details` holds objects with an `@type` (our ErrorInfo carries a stable `reason` such as
 * SCOPE_MISSING). The token endpoint answers OAuth 2.0 errors `{error, error_description}`
 * (RFC 6749 section 5.2). Messages never contain tokens, assertions or keys.
 */
import { SimHttpError, type GrpcStatusName } from '../http/errors.ts';

/** Stable reasons in `details[].reason` of /v1 errors. */
export type FamilyAReason =
  | 'TOKEN_MISSING'
  | 'TOKEN_INVALID'
  | 'TOKEN_EXPIRED'
  | 'SCOPE_MISSING'
  | 'ADDRESS_NOT_ALLOWED'
  | 'PARTICIPANT_REQUIRED'
  | 'PARTICIPANT_INVALID'
  | 'PARTICIPANT_NOT_PERMITTED'
  | 'ACCOUNT_NOT_PERMITTED'
  | 'ORDER_REJECTED';

export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
export const ERROR_DOMAIN = 'tradebot-sim';

export interface ErrorInfo {
  '@type': typeof ERROR_INFO_TYPE;
  reason: FamilyAReason;
  domain: typeof ERROR_DOMAIN;
  metadata: Record<string, string>;
}

/** A /v1 error with a stable reason (rendered as an ErrorInfo detail). */
export class FamilyAError extends SimHttpError {
  readonly reason: FamilyAReason;
  readonly metadata: Record<string, string>;

  constructor(
    status: GrpcStatusName,
    reason: FamilyAReason,
    message: string,
    metadata: Record<string, string> = {},
    headers: Record<string, string> = {},
  ) {
    super(status, message, headers);
    this.name = 'FamilyAError';
    this.reason = reason;
    this.metadata = metadata;
  }
}

export interface FamilyAErrorBody {
  error: { code: GrpcStatusName; status: number; message: string; details: ErrorInfo[] };
}

export function familyAErrorBody(error: SimHttpError): FamilyAErrorBody {
  const details: ErrorInfo[] =
    error instanceof FamilyAError
      ? [{ '@type': ERROR_INFO_TYPE, reason: error.reason, domain: ERROR_DOMAIN, metadata: error.metadata }]
      : [];
  return { error: { code: error.status, status: error.httpStatus, message: error.details, details } };
}

const BEARER_CHALLENGE = 'Bearer realm="tradebot-sim"';

/** 401 with a Bearer challenge. */
export function unauthenticatedA(reason: 'TOKEN_MISSING' | 'TOKEN_INVALID' | 'TOKEN_EXPIRED', message: string): FamilyAError {
  const challenge = reason === 'TOKEN_MISSING' ? BEARER_CHALLENGE : `${BEARER_CHALLENGE}, error="invalid_token"`;
  return new FamilyAError('UNAUTHENTICATED', reason, message, {}, { 'www-authenticate': challenge });
}

export function forbiddenA(reason: FamilyAReason, message: string, metadata: Record<string, string> = {}): FamilyAError {
  return new FamilyAError('PERMISSION_DENIED', reason, message, metadata);
}

/** OAuth error codes the token endpoint uses. */
export type OAuthErrorCode =
  'invalid_request' | 'invalid_client' | 'invalid_client_assertion' | 'unsupported_grant_type' | 'not_found' | 'server_error';

const OAUTH_HTTP: Record<OAuthErrorCode, number> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_client_assertion: 400,
  unsupported_grant_type: 400,
  not_found: 404,
  server_error: 500,
};

/** A token endpoint failure: `{error, error_description}` with the HTTP status of its code. */
export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly httpStatus: number;
  readonly description: string;

  constructor(code: OAuthErrorCode, description: string) {
    super(`${code}: ${description}`);
    this.name = 'OAuthError';
    this.code = code;
    this.httpStatus = OAUTH_HTTP[code];
    this.description = description;
  }

  get body(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

/** Maps the HTTP layer's own failures (bad JSON, unknown path) onto OAuth error bodies. */
export function oauthErrorOf(error: SimHttpError): OAuthError {
  if (error.status === 'NOT_FOUND') return new OAuthError('not_found', error.details);
  if (error.status === 'INTERNAL') return new OAuthError('server_error', error.details);
  return new OAuthError('invalid_request', error.details);
}
