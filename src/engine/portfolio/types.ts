/**
 * The Portfolio's public shapes: the fill it books (structurally what the OrderTracker emits, so a
 * backtest can feed it too), its options, the snapshots for reports (plain objects of Decimals), the
 * change events and the result of a reconciliation. Money is in the account currency, quantities in
 * contracts, all Decimal.
 */
import type { Decimal } from '../../domain/decimal.ts';
import type { EpochMs } from '../../domain/time.ts';
import type { Clock } from '../clock.ts';
import type { IntentSide } from '../intents.ts';

/** A fill to book. The OrderTracker's `Fill` satisfies it. */
export interface PortfolioFill {
  /** When given, a fill id already booked is ignored (at-least-once safety). */
  readonly fillId?: string | undefined;
  readonly account: string;
  readonly symbol: string;
  readonly side: IntentSide;
  readonly qty: Decimal;
  readonly price: Decimal;
  /** The exchange's commission, used when `feeSource` is 'reported'. */
  readonly fee?: Decimal | undefined;
  /** True when the bot took liquidity (taker rate); undefined counts as taker. */
  readonly aggressor?: boolean | undefined;
  readonly time: EpochMs;
}

/** Commission rates in basis points of notional (1 bp = 0.01 %). */
export interface FeeRates {
  readonly takerBps: Decimal;
  readonly makerBps: Decimal;
}

export interface PortfolioOptions {
  readonly clock: Clock;
  /** Default: no commissions. */
  readonly fees?: FeeRates | undefined;
  /**
   * 'rates' (default): fees are computed from `fees`. 'reported': the fill's own `fee` when present, else
   * the rates (live trading can book what the exchange charged).
   */
  readonly feeSource?: 'rates' | 'reported' | undefined;
  /** Cash per account before any trading; accounts not listed start at 0. */
  readonly startingCash?: Readonly<Record<string, Decimal>> | undefined;
  /** Currency of cash; balances in other currencies are ignored by `reconcile`. Default 'USD'. */
  readonly currency?: string | undefined;
  /** How many recent fill ids to remember for duplicates and reversals (default 100000). */
  readonly fillIdMemory?: number | undefined;
  /**
   * Decimal places of money per symbol: its price places plus its quantity places (`moneyDigitsOf(instruments)`).
   * A partial close's released cost is rounded to them, so costs and PnL stay exact at the instrument's scales;
   * a symbol not listed rounds to 18 places (position.ts).
   */
  readonly moneyDigits?: Readonly<Record<string, number>> | undefined;
}

export interface PositionSnapshot {
  readonly account: string;
  readonly symbol: string;
  /** Signed: positive long, negative short. */
  readonly qty: Decimal;
  /** Average entry price of the open position; 0 when flat. */
  readonly avgPx: Decimal;
  /** Signed cost of the open position (qty x avgPx). */
  readonly costBasis: Decimal;
  readonly mark: Decimal | undefined;
  /** qty x mark, or the cost basis when the symbol has no mark. */
  readonly marketValue: Decimal;
  readonly realizedPnl: Decimal;
  /** marketValue - costBasis. */
  readonly unrealizedPnl: Decimal;
  readonly fees: Decimal;
  /** Sum of traded notional (qty x price) over the fills. */
  readonly turnover: Decimal;
  readonly fillCount: number;
  /** The settlement price once the contract settled. */
  readonly settledAt: Decimal | undefined;
}

export interface PnlTotals {
  readonly startingCash: Decimal;
  readonly cash: Decimal;
  readonly marketValue: Decimal;
  /** cash + marketValue. */
  readonly equity: Decimal;
  readonly realizedPnl: Decimal;
  readonly unrealizedPnl: Decimal;
  readonly fees: Decimal;
  /** realized + unrealized - fees. */
  readonly netPnl: Decimal;
  /** Cash and cost-basis corrections from reconciliations (not PnL). */
  readonly adjustments: Decimal;
  readonly turnover: Decimal;
  readonly fillCount: number;
}

export interface AccountSnapshot extends PnlTotals {
  readonly account: string;
  readonly positions: readonly PositionSnapshot[];
}

export interface PortfolioSnapshot {
  readonly time: EpochMs;
  readonly currency: string;
  readonly accounts: readonly AccountSnapshot[];
  readonly totals: PnlTotals;
}

export type PortfolioChangeCause = 'fill' | 'reversal' | 'mark' | 'settle' | 'reconcile';

/** One account's position in one symbol changed (or its cash, when `position` is undefined). */
export interface PortfolioChange {
  readonly cause: PortfolioChangeCause;
  readonly time: EpochMs;
  readonly account: string;
  readonly cash: Decimal;
  readonly position: PositionSnapshot | undefined;
}

export interface PositionDifference {
  readonly account: string;
  readonly symbol: string;
  readonly localQty: Decimal;
  readonly exchangeQty: Decimal;
  readonly localCost: Decimal;
  readonly exchangeCost: Decimal;
}

export interface CashDifference {
  readonly account: string;
  readonly localCash: Decimal;
  readonly exchangeCash: Decimal;
}

export interface ReconcileResult {
  /** Only positions whose quantity or cost differed. */
  readonly positions: readonly PositionDifference[];
  /** Only accounts whose cash differed. */
  readonly cash: readonly CashDifference[];
  /** Balances skipped because their currency is not the portfolio's. */
  readonly ignoredBalances: readonly { readonly account: string; readonly currency: string }[];
}
