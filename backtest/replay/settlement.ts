/**
 * Contracts that expire within the data settle at their expiration time (instrument expirationTime):
 * the price is the one given in `backtest.settlement`, else the last traded price rounded to 0 or 1
 * (>= 0.50 settles at 1). The venue expires the bot's working orders through the matching engine and
 * the portfolio closes the positions at that price (no fee). Later trades of the symbol are ignored.
 */
import type { Decimal } from '../../src/domain/decimal.ts';
import type { Instrument } from '../../src/domain/index.ts';
import type { Settlement } from '../results/report.ts';
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

/** Settlement price 0 or 1: configured, else the last trade (raw, with its scale) rounded; undefined without either. */
export function settlementPrice(
  configured: Decimal | undefined,
  lastRaw: number | undefined,
  priceScale: number,
): { price: 0 | 1; source: 'config' | 'lastTrade' } | undefined {
  if (configured !== undefined) return { price: configured.gte('0.5') ? 1 : 0, source: 'config' };
  if (lastRaw === undefined) return undefined;
  return { price: lastRaw * 2 >= priceScale ? 1 : 0, source: 'lastTrade' };
}

export class SettlementSchedule implements DueWork {
  readonly settled = new Set<string>();
  readonly unsettled: string[] = [];
  readonly done: Settlement[] = [];
  private next = 0;

  constructor(
    private readonly expiries: readonly Expiry[],
    private readonly settle: (expiry: Expiry) => Settlement | undefined,
  ) {}

  nextTime(): number {
    return this.expiries[this.next]?.time ?? Number.POSITIVE_INFINITY;
  }

  runNext(): void {
    const expiry = this.expiries[this.next++];
    if (expiry === undefined) return;
    const result = this.settle(expiry);
    this.settled.add(expiry.symbol);
    if (result === undefined) this.unsettled.push(expiry.symbol);
    else this.done.push(result);
  }
}
