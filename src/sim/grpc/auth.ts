/**
 * Authentication and scopes of the gRPC services. A call carries `authorization: Bearer <family A access
 * token>` in its metadata; the token is checked by an injected `GrpcTokenVerifier` (the family A token
 * server's, or a test's). Missing, malformed, invalid or expired: UNAUTHENTICATED; from an address its
 * client's allowlist does not hold: PERMISSION_DENIED (the /v1 API's 403). Then the method's scope
 * (any one of the listed scopes suffices): PERMISSION_DENIED when the token grants none of them. The
 * caller's accounts come from the verifier and bound what every method may read or trade. The token is
 * checked once, when the call starts: an open stream outlives its token (a reconnect needs a valid one).
 */
import type { Metadata } from '@grpc/grpc-js';
import type { Caller } from '../exchange/commands.ts';
import type { MethodName, MethodRef, ServiceName } from '../../exchange/grpc/protocol/index.ts';
import { permissionDenied, unauthenticated } from './errors.ts';

/** What a valid access token says about its holder. */
export interface VerifiedToken {
  scopes: string[];
  firm: string;
  /** `firms/<firm>/users/<user>` the calls act for. */
  participant: string;
  /** Accounts the token may read and trade (`firms/<firm>/accounts/<account>`). */
  accounts: string[];
}

/**
 * Checks a family A access token presented from `address` (the peer's IP address); never throws for a bad
 * token (answers 'expired' or 'invalid', or 'address-not-allowed' when its client's allowlist does not hold
 * the address).
 */
export type GrpcTokenVerifier = (token: string, address: string) => Promise<VerifiedToken | 'expired' | 'invalid' | 'address-not-allowed'>;

/** The IP address of a grpc-js peer string ("127.0.0.1:5000", "[::1]:5000", "ipv4:…", "ipv6:[…]:…"). */
export function peerAddress(peer: string): string {
  const bare = peer.replace(/^ipv[46]:/, '');
  if (bare.startsWith('[')) return bare.slice(1, bare.indexOf(']') === -1 ? undefined : bare.indexOf(']'));
  const colons = bare.split(':').length - 1;
  return colons === 1 ? bare.slice(0, bare.lastIndexOf(':')) : bare;
}

export interface GrpcCaller extends Caller {
  readonly firm: string;
  readonly scopes: readonly string[];
}

/** The scopes each method accepts (any one of them). */
export const METHOD_SCOPES = {
  OrderEntryAPI: {
    InsertOrder: ['write:orders'],
    InsertOrderList: ['write:orders'],
    PreviewOrder: ['read:orders'],
    CancelOrder: ['write:orders'],
    CancelOrderList: ['write:orders'],
    CancelReplaceOrder: ['write:orders'],
    GetOpenOrders: ['read:orders'],
    CreateOrderSubscription: ['read:orders'],
  },
  MarketDataSubscriptionAPI: { CreateMarketDataSubscription: ['read:marketdata', 'read:l2marketdata'] },
  PositionAPI: { CreatePositionSubscription: ['read:positions'] },
  DropCopyAPI: {
    CreateDropCopySubscription: ['read:dropcopy'],
    CreateTradeCaptureReportSubscription: ['read:dropcopy'],
    CreateInstrumentStateChangeSubscription: ['read:dropcopy', 'read:instruments'],
  },
  RefDataAPI: { ListInstruments: ['read:instruments'] },
  ReportAPI: { SearchTrades: ['read:reports'] },
} as const satisfies { readonly [S in ServiceName]: { readonly [M in MethodName<S>]: readonly string[] } };

export function scopesOf(ref: MethodRef): readonly string[] {
  const table = METHOD_SCOPES as Record<string, Record<string, readonly string[]>>;
  return table[ref.service]?.[ref.method] ?? [];
}

function bearerToken(metadata: Metadata): string {
  const values = metadata.get('authorization');
  const header = values.length === 1 && typeof values[0] === 'string' ? values[0] : undefined;
  if (header === undefined || header.trim() === '')
    throw unauthenticated('missing authorization metadata: send "Bearer <access token>" from the token endpoint');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (match === null) throw unauthenticated('the authorization metadata must be "Bearer <access token>"');
  return match[1] as string;
}

/** The caller of a method, or UNAUTHENTICATED / PERMISSION_DENIED. */
export async function authenticate(metadata: Metadata, verify: GrpcTokenVerifier, ref: MethodRef, peer: string): Promise<GrpcCaller> {
  const address = peerAddress(peer);
  const verified = await verify(bearerToken(metadata), address);
  if (verified === 'expired') throw unauthenticated('the access token has expired: get a new one from the token endpoint');
  if (verified === 'invalid') throw unauthenticated('the access token is not valid for this API');
  if (verified === 'address-not-allowed') throw permissionDenied(`address ${address} is not on the allowlist of the access token's client`);
  const needed = scopesOf(ref);
  if (needed.length > 0 && !needed.some((scope) => verified.scopes.includes(scope))) {
    throw permissionDenied(`${ref.service}.${ref.method} needs the scope ${needed.join(' or ')}, which the access token does not grant`);
  }
  return { participant: verified.participant, accounts: [...verified.accounts], firm: verified.firm, scopes: [...verified.scopes] };
}
