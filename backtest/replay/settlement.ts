/**
 * Contracts that expire within the data (instrument expirationTime) settle at their expiration time, at a
 * price taken only from data, never invented:
 *  1. `backtest.settlement.<symbol>` when the user gives one (source `config`);
 *  2. else what the exchange's market data showed when the history was fetched (the header's `settlements`:
 *     an EXPIRED or TERMINATED instrument with `stats.settlementPx` > 0; source `exchange`);
 *  3. a recording: a recorded book update of the instrument EXPIRED or TERMINATED with settlementPx > 0,
 *     when it is replayed (source `recording`; `fromData`), also after the expiry.
 * Settling expires the bot's working orders in the engine, closes the positions at that price in the
 * portfolio (no fee) and publishes the expired book. With no price at the expiry the contract only expires:
 * the bot's working orders expire, positions stay open, marked at the last price, and the symbol is listed
 * as unsettled with the reason (report.json `unsettled`, the summary). A settlementPx of 0 is not taken as
 * a settlement at 0: on the wire it also means "not settled yet" (docs/decisions.md, live settlement).
 * Later trades of an expired symbol are ignored (`settled`).
 */
import type { Decimal } from '../../src/domain/decimal.ts';
import type { Instrument } from '../../src/domain/index.ts';
import { isOver, type RecordedSettlement } from '../history/format.ts';
import type { Settlement, SettlementSource, Unsettled } from '../results/report.ts';
import type { DueWork } from './timeline.ts';

export interface Expiry {
  readonly symbol: string;
  readonly time: number;
}

/** Expirations of the replayed symbols that fall within [from, to], in time order. */
export function expiriesOf(instruments: readonly Instrument[], symbols: readonly string[], from: number, to: number): Expiry[] {
  return instruments
    .filter((i) => symbols.includes(i.symbol) && i.expirationTime !== undefined && i.expirationTime >= from && i.expirationTime <= to)
    .map((i) => ({ symbol: i.symbol, time: i.expirationTime as number }))
    .sort((a, b) => a.time - b.time || (a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : 0));
}

export type PriceDecision = { readonly price: Decimal; readonly source: SettlementSource } | { readonly reason: string };

/** The settlement price of `symbol` at its expiry from the config or the history's header, or why there is none. */
export function settlementPrice(
  symbol: string,
  configured: Decimal | undefined,
  recorded: readonly RecordedSettlement[] | undefined,
): PriceDecision {
  if (configured !== undefined) return { price: configured, source: 'config' };
  const shown = recorded?.find((s) => s.symbol === symbol);
  if (shown === undefined || !isOver(shown.state))
    return { reason: `the data has no settlement price for ${symbol} (set backtest.settlement.${symbol} if you know the outcome)` };
  if (shown.settlementPx.isZero())
    return {
      reason:
        `the exchange showed ${symbol} ${shown.state} with settlementPx 0, which the wire cannot tell from not settled yet ` +
        `(set backtest.settlement.${symbol}: "0" if it settled at 0)`,
    };
  return { price: shown.settlementPx, source: 'exchange' };
}

/** What settling and expiring act on (the venue, the portfolio) and the instruments' price scales. */
export interface SettlementTarget {
  /** Expires the bot's working orders and publishes the expired book with its settlement price. */
  settle(symbol: string, rawPrice: number, time: number): void;
  /** Expires the bot's working orders, no settlement; positions are marked at the last trade price. */
  expire(symbol: string): void;
  /** Closes the positions at the price (the portfolio). */
  settlePositions(symbol: string, price: Decimal): void;
  priceScale(symbol: string): number;
}

export class SettlementSchedule implements DueWork {
  /** Symbols that expired (settled or not): their later trades are ignored. */
  readonly settled = new Set<string>();
  readonly unsettled: Unsettled[] = [];
  readonly done: Settlement[] = [];
  private next = 0;

  constructor(
    private readonly expiries: readonly Expiry[],
    private readonly target: SettlementTarget,
    private readonly decide: (expiry: Expiry) => PriceDecision,
  ) {}

  nextTime(): number {
    return this.expiries[this.next]?.time ?? Number.POSITIVE_INFINITY;
  }

  runNext(): void {
    const expiry = this.expiries[this.next++];
    if (expiry === undefined) return;
    this.settled.add(expiry.symbol);
    const decision = this.decide(expiry);
    if ('reason' in decision || !this.settle(expiry.symbol, decision.price, decision.source, expiry.time)) {
      const reason = 'reason' in decision ? decision.reason : `settlement price ${decision.price.toString()} is neither 0 nor 1`;
      this.target.expire(expiry.symbol);
      this.unsettled.push({ symbol: expiry.symbol, time: expiry.time, reason });
    }
  }

  /** A settlement the replayed data shows (a recorded book update): settles the symbol once, at `time`. */
  fromData(symbol: string, price: Decimal, time: number): void {
    if (this.done.some((s) => s.symbol === symbol)) return;
    if (!this.settle(symbol, price, 'recording', time)) return;
    this.settled.add(symbol);
    const i = this.unsettled.findIndex((u) => u.symbol === symbol);
    if (i >= 0) this.unsettled.splice(i, 1);
  }

  /** Settles at 0 or 1; false (nothing done) for any other price. */
  private settle(symbol: string, price: Decimal, source: SettlementSource, time: number): boolean {
    if (!price.eq(0) && !price.eq(1)) return false;
    const scale = this.target.priceScale(symbol);
    this.target.settle(symbol, price.eq(1) ? scale : 0, time);
    this.target.settlePositions(symbol, price);
    this.done.push({ symbol, time, price: price.toString(), source });
    return true;
  }
}
