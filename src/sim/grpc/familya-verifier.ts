/**
 * The gRPC door's token verifier backed by the simulator's family A token service: the same access
 * tokens as /v1 (`Authorization: Bearer` there, `authorization` metadata here), checked the same way
 * (signature, issuer, audience, expiry on the sim clock), refused when their client is no longer
 * onboarded. The caller acts for the token's participant and may use every account of its firm, as a /v1
 * call without `x-participant-id` may. (Address allowlists and `x-participant-id` narrowing are /v1 only.)
 */
import type { AccessTokenService } from '../familya/access-tokens.ts';
import type { GrpcTokenVerifier } from './auth.ts';

export interface FamilyAVerifierDeps {
  readonly tokens: Pick<AccessTokenService, 'verify'>;
  readonly clients: { get(clientId: string): object | undefined };
  readonly directory: { accountsOfFirm(firm: string): string[] };
}

export function familyAVerifier(deps: FamilyAVerifierDeps): GrpcTokenVerifier {
  return async (token) => {
    const claims = await deps.tokens.verify(token);
    if (claims === 'expired' || claims === 'invalid') return claims;
    if (deps.clients.get(claims.clientId) === undefined) return 'invalid';
    return { scopes: [...claims.scopes], firm: claims.firm, participant: claims.participant, accounts: deps.directory.accountsOfFirm(claims.firm) };
  };
}
