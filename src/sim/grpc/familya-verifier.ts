/**
 * The gRPC door's token verifier backed by the simulator's family A token service: the same access
 * tokens as /v1 (`Authorization: Bearer` there, `authorization` metadata here), checked the same way
 * (signature, issuer, audience, expiry on the sim clock), refused when their client is no longer
 * onboarded, or presented from an address its client's allowlist does not hold (as /v1 refuses it). The
 * caller acts for the token's participant and may use every account of its firm, as a /v1 call without
 * `x-participant-id` may (that header's narrowing is /v1 only).
 */
import type { AccessTokenService } from '../familya/access-tokens.ts';
import { addressAllowed, type SimApiClient } from '../familya/clients.ts';
import type { GrpcTokenVerifier } from './auth.ts';

export interface FamilyAVerifierDeps {
  readonly tokens: Pick<AccessTokenService, 'verify'>;
  readonly clients: { get(clientId: string): SimApiClient | undefined };
  readonly directory: { accountsOfFirm(firm: string): string[] };
}

export function familyAVerifier(deps: FamilyAVerifierDeps): GrpcTokenVerifier {
  return async (token, address) => {
    const claims = await deps.tokens.verify(token);
    if (claims === 'expired' || claims === 'invalid') return claims;
    const client = deps.clients.get(claims.clientId);
    if (client === undefined) return 'invalid';
    if (!addressAllowed(client, address)) return 'address-not-allowed';
    return {
      scopes: [...claims.scopes],
      firm: claims.firm,
      participant: claims.participant,
      accounts: deps.directory.accountsOfFirm(claims.firm),
    };
  };
}
