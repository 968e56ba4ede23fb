/**
 * Settlement of expired contracts in a live run (the backtest's replay settles its portfolio itself and
 * publishes the same kind of book event, which then finds nothing left to settle). The exchange shows a
 * settlement on the market data stream: the book update of an EXPIRED or TERMINATED instrument carries
 * `stats.settlementPx`. Rules (ours; the spec is silent):
 * - settlementPx > 0 (a contract settles at 1.00): every local position in the symbol settles at that
 *   price at once (realized PnL booked, no fee), then one reconciliation checks positions and cash.
 * - settlementPx 0 is ambiguous on the wire (settled at 0.00, or expired and not settled yet): the symbol
 *   awaits settlement and a reconciliation is asked for. When the exchange lists a position of the symbol as
 *   flat (or not at all) that the bot still holds, the contract settled at 0 (an expired contract cannot
 *   trade): it is settled locally at 0 before the exchange's positions are applied, so the loss is realized
 *   PnL, not a reconciliation adjustment.
 * A symbol settles once per run.
 */
import { ZERO, type Decimal } from '../domain/decimal.ts';
import type { Position } from '../domain/index.ts';
import type { BookEvent } from '../domain/stream-events.ts';
import type { PortfolioPort } from './portfolio-port.ts';

export type SettlementAction =
  /** Settled locally at `price`: reconcile once. */
  | { readonly kind: 'settled'; readonly symbol: string; readonly price: Decimal }
  /** Expired, settlement price not known: reconcile to find out. */
  | { readonly kind: 'check'; readonly symbol: string };

const isOver = (state: BookEvent['state']) => state === 'INSTRUMENT_STATE_EXPIRED' || state === 'INSTRUMENT_STATE_TERMINATED';

export class SettlementWatch {
  private readonly settled = new Set<string>();
  private readonly awaiting = new Set<string>();

  constructor(
    private readonly portfolio: PortfolioPort,
    private readonly now: () => number,
  ) {}

  /** What a book event means for settlement (undefined: nothing; the instrument trades, or it settled already). */
  onBook(event: BookEvent): SettlementAction | undefined {
    if (!isOver(event.state) || this.settled.has(event.symbol)) return undefined;
    const price = event.stats?.settlementPx ?? ZERO;
    if (price.isZero()) {
      this.awaiting.add(event.symbol);
      return { kind: 'check', symbol: event.symbol };
    }
    this.settle(event.symbol, price);
    return { kind: 'settled', symbol: event.symbol, price };
  }

  /**
   * Before a reconciliation applies the exchange's positions (of `accounts`): settles at 0 every awaiting
   * symbol that the exchange shows flat where the bot still holds a position. Returns the symbols settled.
   */
  beforeReconcile(accounts: readonly string[], positions: readonly Position[]): string[] {
    const done: string[] = [];
    for (const symbol of this.awaiting) {
      const held = this.portfolio.positions().filter((p) => p.symbol === symbol && accounts.includes(p.account));
      const gone = held.some((p) => !positions.some((x) => x.account === p.account && x.symbol === symbol && !x.netPosition.isZero()));
      if (!gone) continue;
      this.settle(symbol, ZERO);
      done.push(symbol);
    }
    return done;
  }

  private settle(symbol: string, price: Decimal): void {
    this.settled.add(symbol);
    this.awaiting.delete(symbol);
    if (this.portfolio.positions().some((p) => p.symbol === symbol)) this.portfolio.settle(symbol, price, this.now());
  }
}
