/**
 * Synthetic market activity for the simulator: per instrument a fair value takes a seeded random walk
 * (whole ticks, mean-reverting inside the price limits); liquidity providers keep a few levels of quotes
 * around it, and noise takers now and then send marketable IOC orders. A bot thus finds a two-sided book
 * and counterparties within seconds. Deterministic: the same seed and steps give the same orders.
 */
import type { OrderRequest } from '../matching/types.ts';
import { seededRandom, type Random } from './random.ts';

export const ACTIVITY_FIRM = 'sim-liquidity';

export interface ActivityInstrument {
  symbol: string;
  /** All raw (scaled) integers. */
  tickSize: number;
  lotSize: number;
  priceLimitLow: number;
  priceLimitHigh: number;
  fairValue: number;
}

export interface ActivityVenue {
  submit(request: OrderRequest): void;
  cancelAll(account: string, symbol: string): void;
  /** Best bid and offer prices, raw; undefined when a side is empty. */
  bestPrices(symbol: string): { bid: number | undefined; offer: number | undefined };
}

export interface ActivitySettings {
  seed: number;
  makersPerInstrument: number;
  /** Probability (0..1) per step per instrument of a taker order. */
  takerProbability: number;
  /** Standard deviation of the fair-value step, in ticks. */
  volatilityTicks: number;
  /** Largest agent order, in lots. */
  maxOrderLots: number;
}

interface InstrumentState {
  spec: ActivityInstrument;
  fairValue: number;
  anchor: number;
}

export class MarketActivity {
  private readonly random: Random;
  private readonly states: InstrumentState[];
  private clordSeq = 0;

  constructor(
    instruments: readonly ActivityInstrument[],
    private readonly settings: ActivitySettings,
  ) {
    this.random = seededRandom(settings.seed);
    this.states = instruments.map((spec) => ({ spec, fairValue: spec.fairValue, anchor: spec.fairValue }));
  }

  static makerAccount(symbol: string, index: number): string {
    return `firms/${ACTIVITY_FIRM}/accounts/maker-${index}-${symbol}`;
  }

  static takerAccount(symbol: string): string {
    return `firms/${ACTIVITY_FIRM}/accounts/taker-${symbol}`;
  }

  fairValue(symbol: string): number | undefined {
    return this.states.find((s) => s.spec.symbol === symbol)?.fairValue;
  }

  /** Posts the initial ladders so the book is two-sided from the first moment. */
  seed(venue: ActivityVenue): void {
    for (const state of this.states) {
      for (let i = 0; i < this.settings.makersPerInstrument; i++) this.quote(venue, state, i);
    }
  }

  /** One step: move fair values, refresh some makers' quotes, maybe send a taker order per instrument. */
  step(venue: ActivityVenue): void {
    for (const state of this.states) {
      this.walk(state);
      for (let i = 0; i < this.settings.makersPerInstrument; i++) {
        if (this.random.chance(0.4)) this.quote(venue, state, i);
      }
      if (this.random.chance(this.settings.takerProbability)) this.take(venue, state);
    }
  }

  private walk(state: InstrumentState): void {
    const { tickSize, priceLimitLow, priceLimitHigh } = state.spec;
    const reversion = (state.anchor - state.fairValue) / tickSize / 50;
    const ticks = Math.round(this.random.normal() * this.settings.volatilityTicks + reversion);
    const low = priceLimitLow + 4 * tickSize;
    const high = priceLimitHigh - 4 * tickSize;
    state.fairValue = Math.min(high, Math.max(low, state.fairValue + ticks * tickSize));
  }

  private quote(venue: ActivityVenue, state: InstrumentState, makerIndex: number): void {
    const { symbol, tickSize, lotSize, priceLimitLow, priceLimitHigh } = state.spec;
    const account = MarketActivity.makerAccount(symbol, makerIndex);
    venue.cancelAll(account, symbol);
    const halfSpread = (1 + makerIndex + this.random.int(0, 1)) * tickSize;
    for (let level = 0; level < 3; level++) {
      const bid = state.fairValue - halfSpread - level * tickSize;
      const offer = state.fairValue + halfSpread + level * tickSize;
      const qty = this.random.int(1, this.settings.maxOrderLots) * lotSize;
      if (bid >= priceLimitLow) venue.submit(this.order(account, symbol, 'SIDE_BUY', bid, qty, 'TIME_IN_FORCE_DAY'));
      if (offer <= priceLimitHigh)
        venue.submit(
          this.order(account, symbol, 'SIDE_SELL', offer, this.random.int(1, this.settings.maxOrderLots) * lotSize, 'TIME_IN_FORCE_DAY'),
        );
    }
  }

  private take(venue: ActivityVenue, state: InstrumentState): void {
    const { symbol, tickSize, lotSize, priceLimitLow, priceLimitHigh } = state.spec;
    const best = venue.bestPrices(symbol);
    const buy = this.random.chance(0.5);
    const touch = buy ? best.offer : best.bid;
    if (touch === undefined) return;
    const reach = this.random.int(0, 2) * tickSize;
    const price = buy ? Math.min(priceLimitHigh, touch + reach) : Math.max(priceLimitLow, touch - reach);
    const qty = this.random.int(1, Math.max(1, Math.floor(this.settings.maxOrderLots / 2))) * lotSize;
    venue.submit(
      this.order(
        MarketActivity.takerAccount(symbol),
        symbol,
        buy ? 'SIDE_BUY' : 'SIDE_SELL',
        price,
        qty,
        'TIME_IN_FORCE_IMMEDIATE_OR_CANCEL',
      ),
    );
  }

  private order(
    account: string,
    symbol: string,
    side: OrderRequest['side'],
    price: number,
    orderQty: number,
    timeInForce: OrderRequest['timeInForce'],
  ): OrderRequest {
    this.clordSeq += 1;
    return {
      account,
      symbol,
      side,
      type: 'ORDER_TYPE_LIMIT',
      price,
      orderQty,
      timeInForce,
      clordId: `sim-${this.clordSeq}`,
      participant: `firms/${ACTIVITY_FIRM}/users/activity`,
    };
  }
}
