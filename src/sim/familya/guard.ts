/**
 * Access control of the /v1 API: `Authorization: Bearer <token>` (missing, invalid or expired is 401),
 * the client's address allowlist (403 ADDRESS_NOT_ALLOWED), the endpoint's scope (403 SCOPE_MISSING),
 * and the `x-participant-id` header. Trading calls require the header (missing or malformed: 400) and it
 * must name a participant of the client's firm (else 403 PARTICIPANT_NOT_PERMITTED); on other calls it is
 * optional and narrows the visible accounts from the whole firm to that participant's.
 */
import type { RequestContext } from '../http/router.ts';
import { invalidArgument } from '../http/errors.ts';
import type { Caller } from '../exchange/commands.ts';
import { FamilyAError, forbiddenA, unauthenticatedA } from './errors.ts';
import { addressAllowed, type ClientRegistry } from './clients.ts';
import type { AccessTokenService } from './access-tokens.ts';
import type { Directory } from './directory.ts';
import type { Scope } from './scopes.ts';

export const PARTICIPANT_HEADER = 'x-participant-id';
const PARTICIPANT_FORM = /^firms\/([A-Za-z0-9_.-]+)\/users\/[A-Za-z0-9_.@-]+$/;

/** `required`: trading calls; `optional`: reads that may narrow to one participant; `ignored`: the rest. */
export type ParticipantRule = 'required' | 'optional' | 'ignored';

export interface ApiCaller {
  clientId: string;
  firm: string;
  scopes: readonly string[];
  /** The participant the call acts for: the header's, or the client's configured participant. */
  participant: string;
  /** True when `x-participant-id` named the participant. */
  participantFromHeader: boolean;
  /** Accounts the call may read or trade: the participant's (header given) or the whole firm's. */
  accounts: readonly string[];
  /** The caller as the shared order-entry translation sees it. */
  trading: Caller;
}

export interface GuardDeps {
  tokens: AccessTokenService;
  clients: ClientRegistry;
  directory: Directory;
}

function bearerToken(context: RequestContext): string {
  const header = context.headers.authorization;
  if (header === undefined || header.trim() === '')
    throw unauthenticatedA('TOKEN_MISSING', 'missing Authorization header: send "Bearer <access token>" from the token endpoint');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) throw unauthenticatedA('TOKEN_INVALID', 'the Authorization header must be "Bearer <access token>"');
  return match[1] as string;
}

function headerParticipant(context: RequestContext, rule: ParticipantRule): string | undefined {
  if (rule === 'ignored') return undefined;
  const raw = context.headers[PARTICIPANT_HEADER];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value.trim() === '') {
    if (rule === 'required')
      throw new FamilyAError(
        'INVALID_ARGUMENT',
        'PARTICIPANT_REQUIRED',
        `trading calls need the ${PARTICIPANT_HEADER} header (firms/<firm>/users/<user>)`,
      );
    return undefined;
  }
  if (!PARTICIPANT_FORM.test(value.trim()))
    throw new FamilyAError('INVALID_ARGUMENT', 'PARTICIPANT_INVALID', `${PARTICIPANT_HEADER} must have the form firms/<firm>/users/<user>`);
  return value.trim();
}

export async function authorize(context: RequestContext, deps: GuardDeps, scope: Scope, rule: ParticipantRule): Promise<ApiCaller> {
  const claims = await deps.tokens.verify(bearerToken(context));
  if (claims === 'expired') throw unauthenticatedA('TOKEN_EXPIRED', 'the access token has expired: get a new one from the token endpoint');
  if (claims === 'invalid') throw unauthenticatedA('TOKEN_INVALID', 'the access token is not valid for this API');
  const client = deps.clients.get(claims.clientId);
  if (client === undefined) throw unauthenticatedA('TOKEN_INVALID', 'the access token names a client that is no longer onboarded');
  if (!addressAllowed(client, context.remoteAddress)) {
    throw forbiddenA('ADDRESS_NOT_ALLOWED', `address ${context.remoteAddress} is not on the allowlist of client ${client.clientId}`, {
      address: context.remoteAddress,
    });
  }
  if (!claims.scopes.includes(scope))
    throw forbiddenA('SCOPE_MISSING', `this endpoint needs the scope ${scope}, which the access token does not grant`, { scope });
  const named = headerParticipant(context, rule);
  if (named !== undefined) {
    const user = deps.directory.user(named);
    if (user === undefined || user.firm !== claims.firm) {
      throw forbiddenA(
        'PARTICIPANT_NOT_PERMITTED',
        `${named} is not a participant of firm ${claims.firm}, which client ${client.clientId} acts for`,
        { participant: named },
      );
    }
    return caller(claims.clientId, claims.firm, claims.scopes, named, true, user.accounts);
  }
  return caller(claims.clientId, claims.firm, claims.scopes, claims.participant, false, deps.directory.accountsOfFirm(claims.firm));
}

function caller(
  clientId: string,
  firm: string,
  scopes: string[],
  participant: string,
  fromHeader: boolean,
  accounts: readonly string[],
): ApiCaller {
  return { clientId, firm, scopes, participant, participantFromHeader: fromHeader, accounts, trading: { participant, accounts } };
}

/** The accounts a request names, each checked against the caller's; none named means all of them. */
export function accountsFor(caller: ApiCaller, requested: readonly string[]): string[] {
  for (const account of requested) {
    if (account === '') throw invalidArgument('an account name is empty');
    if (!caller.accounts.includes(account)) {
      throw forbiddenA(
        'ACCOUNT_NOT_PERMITTED',
        `account ${account} does not belong to ${caller.participantFromHeader ? caller.participant : `firm ${caller.firm}`}`,
        { account },
      );
    }
  }
  return requested.length > 0 ? [...requested] : [...caller.accounts];
}
