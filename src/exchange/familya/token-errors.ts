/**
 * Token endpoint failures -> typed errors. OAuth error answers (`{error, error_description}`, HTTP 400 or
 * 401) become FAMILY_A_TOKEN_REJECTED carrying the OAuth code and a hint at the usual cause; 403 is
 * FAMILY_A_PERMISSION_DENIED; connectivity and rate limits pass through unchanged (retryable).
 */
import { TransportErrorCode, isTransportError } from '../transport/index.ts';
import { parseFamilyAErrorBody } from './error-body.ts';
import { FamilyAError, FamilyAErrorCode } from './errors.ts';

const HINTS: Readonly<Record<string, string>> = {
  invalid_client:
    'the token endpoint does not know this client or the assertion signature does not match the onboarded public key; ' +
    'check clientId and privateKeyFile for this environment',
  invalid_client_assertion:
    'the assertion was malformed or its claims were refused ' +
    '(aud must be {auth_url}/oauth/token, exp at most 5 minutes after iat, a fresh jti); check authUrl and the local clock',
  unauthorized_client: 'this client may not use the client_credentials grant; ask the operator',
  invalid_grant: 'the grant was refused; check the client id and environment',
  invalid_request: 'the token request was malformed',
  invalid_scope: 'a requested scope is not granted to this client',
};

export function tokenEndpointError(error: unknown, clientId: string): unknown {
  if (!isTransportError(error)) return error;
  const status = error.details?.['status'];
  const httpStatus = typeof status === 'number' ? status : undefined;
  if (error.code === TransportErrorCode.Forbidden) {
    return new FamilyAError(
      FamilyAErrorCode.PermissionDenied,
      'token: the token endpoint refused this address (HTTP 403); is it allowlisted?',
      {
        cause: error,
        httpStatus,
        details: { operation: 'token', clientId, httpStatus },
      },
    );
  }
  if (error.code !== TransportErrorCode.Rejected && error.code !== TransportErrorCode.Unauthorized) return error;
  const body = error.details !== undefined ? parseFamilyAErrorBody(error.details['body']) : undefined;
  const oauthError = typeof body?.code === 'string' ? body.code : undefined;
  const hint = oauthError === undefined ? undefined : HINTS[oauthError];
  const description = body?.message !== undefined && body.message !== '' ? `: ${body.message}` : '';
  const what = oauthError === undefined ? `HTTP ${httpStatus ?? '4xx'}` : `${oauthError}, HTTP ${httpStatus ?? '4xx'}`;
  return new FamilyAError(
    FamilyAErrorCode.TokenRejected,
    `token: the token endpoint refused client ${clientId} (${what})${description}${hint === undefined ? '' : `; ${hint}`}`,
    { cause: error, httpStatus, oauthError, exchange: body, details: { operation: 'token', clientId, httpStatus, oauthError } },
  );
}
