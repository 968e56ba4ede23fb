/**
 * Domain types of accounts (all shapes not shown by the spec: our design): positions, balances,
 * who-am-i, users and funding accounts. Position quantities and prices are scaled on the wire with the
 * symbol's scales; money amounts (balances, cost basis, PnL) are plain decimal strings, as the notes say
 * for get_account_balance.
 */
import type { Decimal } from '../decimal.ts';
import type { EpochMs } from '../time.ts';
import type { KycStatus } from '../enums.ts';

export interface Position {
  /** `firms/<firm_id>/accounts/<account_id>` */
  readonly account: string;
  readonly symbol: string;
  /** Positive long, negative short. */
  readonly netPosition: Decimal;
  readonly openBuyQty: Decimal;
  readonly openSellQty: Decimal;
  /** Average entry price, encoded rounded half-even to the price scale. */
  readonly avgEntryPx: Decimal;
  readonly costBasis: Decimal;
  readonly realizedPnl: Decimal;
  readonly updateTime: EpochMs | undefined;
}

/** Quantity of a symbol available to sell (list_account_positions `available_position`). */
export interface AvailablePosition {
  readonly account: string;
  readonly symbol: string;
  readonly qty: Decimal;
}

export interface Balance {
  readonly account: string;
  readonly currency: string;
  readonly balance: Decimal;
  readonly buyingPower: Decimal;
  /** Funds held by open orders. */
  readonly openOrders: Decimal;
  readonly unsettledFunds: Decimal;
  readonly availableToWithdraw: Decimal;
  readonly updateTime: EpochMs | undefined;
}

export interface WhoAmI {
  /** `firms/<firm_id>/users/<user_id>` */
  readonly participantId: string;
  readonly firmId: string;
  readonly userId: string;
  readonly username: string;
  readonly accounts: readonly string[];
  readonly scopes: readonly string[];
}

export interface User {
  /** `firms/<firm_id>/users/<user_id>` */
  readonly id: string;
  readonly externalId: string;
  readonly username: string;
  readonly email: string;
  readonly firstName: string;
  readonly lastName: string;
  readonly accounts: readonly string[];
  readonly kycStatus: KycStatus;
  readonly createTime: EpochMs | undefined;
}

export interface FundingAccount {
  readonly id: string;
  readonly account: string;
  /** e.g. BANK, CARD (free text). */
  readonly type: string;
  readonly displayName: string;
  readonly status: string;
  readonly currency: string;
  readonly last4: string;
  readonly createTime: EpochMs | undefined;
}
