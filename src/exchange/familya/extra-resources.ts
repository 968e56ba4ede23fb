/**
 * Family A payloads the spec names but does not show, and that the domain layer does not model yet: health,
 * balances, user creation, deposits, reference-data metadata, and the query objects of the GET lookups.
 * These shapes are our design (docs/decisions.md); they are built with the domain's table-driven codec core,
 * so they follow the same proto3 JSON rules (absent = default, unknown fields ignored, errors name the path).
 * Money amounts are plain decimal strings, as for balances. The simulator serves the same shapes. Move them
 * into src/domain once the simulator serves them too.
 */
import { bindCodec } from '../../domain/index.ts';
import type { Balance, Decimal, EpochMs, WireCodec } from '../../domain/index.ts';
import { message, msg, optMsg } from '../../domain/wire/codec.ts';
import { balanceCodec } from '../../domain/wire/tables/reference.ts';
import type { RootCodec } from '../../domain/wire/codec.ts';
import { dec, int32, list, str, time } from '../../domain/wire/fields.ts';

export interface HealthStatus {
  /** e.g. `SERVING`. */
  readonly status: string;
}

/** POST /v1/positions/balances: the accounts (all of the caller's when empty) and a currency filter. */
export interface BalancesRequest {
  readonly accounts: readonly string[];
  readonly currency: string;
}

/** POST /v1/users (`username` required). */
export interface CreateUserRequest {
  readonly username: string;
  readonly externalId: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
}

/** GET /v1/users query. */
export interface ListUsersRequest {
  readonly pageSize: number;
  readonly pageToken: string;
}

/** POST /v1/aeropay/deposits and /v1/checkout/deposits. */
export interface DepositRequest {
  /** `firms/<firm_id>/accounts/<account_id>` credited. */
  readonly account: string;
  /** The funding account (bank or card) debited, from `fundingAccounts()`; '' = the account's default. */
  readonly fundingAccountId: string;
  /** Money, at most 2 decimals. */
  readonly amount: Decimal;
  readonly currency: string;
}

export interface Deposit {
  readonly id: string;
  /** `aeropay` or `checkout`. */
  readonly provider: string;
  readonly account: string;
  readonly amount: Decimal;
  readonly currency: string;
  /** e.g. PENDING, COMPLETED, FAILED (free text). */
  readonly status: string;
  readonly createTime: EpochMs | undefined;
}

/** The deposit answer: the deposit and the account's balance after it (when the exchange sends one). */
export interface DepositResult {
  readonly deposit: Deposit;
  readonly balance: Balance | undefined;
}

/** POST /v1/refdata/metadata: free-form metadata per symbol (shape not shown). */
export interface MetadataRequest {
  readonly symbols: readonly string[];
}

/** GET /v1/kyc/status query. */
export interface KycStatusRequest {
  readonly externalId: string;
}

/** GET /v1/funding/accounts query. */
export interface FundingAccountsRequest {
  readonly account: string;
}

const camel = <T>(codec: RootCodec<T>): WireCodec<T> => bindCodec(codec, 'camel');

export const familyAExtra = {
  health: camel(message<HealthStatus>({ name: 'HealthStatus', fields: { status: str() } })),
  balancesRequest: camel(message<BalancesRequest>({ name: 'BalancesRequest', fields: { accounts: list(str()), currency: str() } })),
  createUserRequest: camel(
    message<CreateUserRequest>({
      name: 'CreateUserRequest',
      fields: { username: str(), externalId: str(), email: str(), firstName: str(), lastName: str() },
    }),
  ),
  listUsersRequest: camel(message<ListUsersRequest>({ name: 'ListUsersRequest', fields: { pageSize: int32(), pageToken: str() } })),
  depositRequest: camel(
    message<DepositRequest>({
      name: 'DepositRequest',
      fields: { account: str(), fundingAccountId: str(), amount: dec(), currency: str() },
    }),
  ),
  depositResult: camel(
    message<DepositResult>({
      name: 'DepositResult',
      fields: {
        deposit: msg(
          message<Deposit>({
            name: 'Deposit',
            fields: { id: str(), provider: str(), account: str(), amount: dec(), currency: str(), status: str(), createTime: time() },
          }),
        ),
        balance: optMsg(balanceCodec),
      },
    }),
  ),
  metadataRequest: camel(message<MetadataRequest>({ name: 'MetadataRequest', fields: { symbols: list(str()) } })),
  kycStatusRequest: camel(message<KycStatusRequest>({ name: 'KycStatusRequest', fields: { externalId: str() } })),
  fundingAccountsRequest: camel(message<FundingAccountsRequest>({ name: 'FundingAccountsRequest', fields: { account: str() } })),
} as const;
