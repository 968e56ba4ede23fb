/**
 * What the pipeline needs from the portfolio: apply fills, mark prices, settle, read positions and PnL,
 * reconcile with the exchange. The engine's Portfolio implements it; reports read its snapshots.
 *
 * Risk reads positions and PnL on every intent and every book update, so the port keeps them until the
 * portfolio changes: the Portfolio emits on `changes$` for every fill, reversal, settlement, reconciliation
 * and every mark that moves a held position, which are all the inputs of those figures (exact, not a TTL);
 * a mark changes the PnL only, so the positions are kept across marks. The daily PnL is today's (UTC): it
 * starts again from zero at midnight, and leaves out what positions taken over from the exchange (held before
 * the run) were worth at their first mark (Portfolio.preRunPnl).
 *
 * Holdings (a position's quantity and cost) are what a strategy of a bot running several keeps across a
 * restart (the journal's `holding` lines): `holdings$` tells each change by a fill, reversal or settlement,
 * `restoreHoldings` takes an earlier run's as the portfolio's own, the cost booked as an adjustment like a
 * reconciliation's, so the PnL does not jump.
 */
import type { Decimal } from '../domain/decimal.ts';
import { filter, map, type Observable } from 'rxjs';
import { DAY_MS, type Balance, type Position } from '../domain/index.ts';
import type { Fill } from './orders/index.ts';
import type { Portfolio } from './portfolio/index.ts';
import { sumDecimals, ZERO } from '../domain/decimal.ts';
import { RenewingMap } from '../util/renewing-collections.ts';

export interface PortfolioPosition {
  readonly account: string;
  readonly symbol: string;
  readonly qty: Decimal;
}

/** A position's quantity and signed cost (qty x average entry price). */
export interface Holding {
  readonly account: string;
  readonly symbol: string;
  readonly qty: Decimal;
  readonly cost: Decimal;
}

export interface PortfolioPort {
  applyFill(fill: Fill): void;
  mark(symbol: string, price: Decimal): void;
  settle(symbol: string, price: Decimal, time: number): void;
  positions(): readonly PortfolioPosition[];
  /** Net position in `symbol` for `account`, or across accounts. */
  position(symbol: string, account?: string): Decimal;
  /**
   * Realized + unrealized PnL minus fees of today (UTC, engine time): since the day began, or the run when it
   * began later, leaving out what positions taken over from the exchange were worth at their first mark.
   */
  dailyPnl(): Decimal;
  /** Takes the exchange's positions and balances as truth; returns human-readable differences. */
  reconcile(positions: readonly Position[], balances: readonly Balance[]): readonly string[];
  /** Every change of a position's quantity or cost by a fill, a reversal or a settlement. */
  readonly holdings$?: Observable<Holding>;
  /** Takes holdings of an earlier run as its own (call before anything is booked). */
  restoreHoldings?(holdings: readonly Holding[]): void;
}

/** The engine's Portfolio seen through the port (positions and PnL cached until the portfolio changes). */
export function portfolioPort(portfolio: Portfolio): PortfolioPort {
  let positions: readonly PortfolioPosition[] | undefined;
  let pnl: Decimal | undefined;
  // the run's own PnL (net less what came from before the run) at the start of the current UTC day
  let day: number | undefined;
  let dayStart: Decimal = ZERO;
  // x - (+0) is x itself (for -0 too): most runs take over nothing and stay within one day, and risk asks for
  // the day's PnL after every mark of a held position
  const less = (x: Decimal, y: Decimal): Decimal => (y.isZero() && !y.isNegative() ? x : x.minus(y));
  const runPnl = () => less(portfolio.netPnl(), portfolio.preRunPnl());
  const net = new RenewingMap<string, Decimal>();
  portfolio.changes$.subscribe((change) => {
    pnl = undefined;
    // a mark moves values only: the quantities stay
    if (change.cause === 'mark') return;
    positions = undefined;
    net.clear();
  });
  // quantities only: risk and strategies ask on every event, valuing the whole portfolio each time is waste
  const held = () => (positions ??= portfolio.quantities().filter((p) => !p.qty.isZero()));
  return {
    applyFill: (fill) => void portfolio.applyFill(fill),
    mark: (symbol, price) => portfolio.mark(symbol, price),
    settle: (symbol, price) => portfolio.settle(symbol, price),
    positions: held,
    position: (symbol, account) => {
      if (account !== undefined) return portfolio.quantity(account, symbol);
      let qty = net.get(symbol);
      if (qty === undefined) {
        qty = sumDecimals(
          held()
            .filter((p) => p.symbol === symbol)
            .map((p) => p.qty),
        );
        net.set(symbol, qty);
      }
      return qty;
    },
    dailyPnl: () => {
      const today = Math.floor(portfolio.now() / DAY_MS);
      if (day !== today) {
        if (day !== undefined) dayStart = runPnl(); // a new day starts from the PnL so far
        day = today;
        pnl = undefined;
      }
      return (pnl ??= less(runPnl(), dayStart));
    },
    holdings$: portfolio.changes$.pipe(
      filter((change) => change.cause === 'fill' || change.cause === 'reversal' || change.cause === 'settle'),
      map((change): Holding | undefined => {
        const position = change.position;
        return position === undefined
          ? undefined
          : { account: change.account, symbol: position.symbol, qty: position.qty, cost: position.costBasis };
      }),
      filter((holding): holding is Holding => holding !== undefined),
    ),
    restoreHoldings: (holdings) => void portfolio.reconcile(holdings.map(asExchangePosition), []),
    reconcile: (positions, balances) => {
      const result = portfolio.reconcile(positions, balances);
      return [
        ...result.positions.map(
          (d) => `${d.account} ${d.symbol}: local position ${d.localQty.toString()}, exchange ${d.exchangeQty.toString()}`,
        ),
        ...result.cash.map((d) => `${d.account}: local cash ${d.localCash.toString()}, exchange ${d.exchangeCash.toString()}`),
      ];
    },
  };
}

/** A holding in the exchange's shape, for `Portfolio.reconcile` (its cost basis is taken as is, see reconcile.ts). */
function asExchangePosition(holding: Holding): Position {
  const { account, symbol, qty, cost } = holding;
  return {
    account,
    symbol,
    netPosition: qty,
    openBuyQty: ZERO,
    openSellQty: ZERO,
    avgEntryPx: qty.isZero() ? ZERO : cost.div(qty),
    costBasis: cost,
    realizedPnl: ZERO,
    updateTime: undefined,
  };
}
