/**
 * The PortfolioPort the backtest hands the pipeline: the same answers as src/engine/portfolio-port.ts
 * (it delegates the writes and the daily PnL to it), but positions() and the net positions are computed once
 * per portfolio change instead of on every risk check. Exact: the Portfolio emits on
 * `changes$` for every fill, reversal, settlement, reconciliation and every mark that moves a held
 * position, which are all the inputs of those two figures. (A candidate to replace the live port too.)
 */
import type { Decimal } from '../../src/domain/decimal.ts';
import { sumDecimals } from '../../src/domain/decimal.ts';
import type { Portfolio } from '../../src/engine/portfolio/index.ts';
import { portfolioPort, type PortfolioPort, type PortfolioPosition } from '../../src/engine/portfolio-port.ts';

export function cachedPortfolioPort(portfolio: Portfolio): PortfolioPort & { close(): void } {
  const base = portfolioPort(portfolio);
  let positions: readonly PortfolioPosition[] | undefined;
  const net = new Map<string, Decimal>();
  const subscription = portfolio.changes$.subscribe((change) => {
    // a mark moves values only: the quantities stay
    if (change.cause === 'mark') return;
    positions = undefined;
    net.clear();
  });
  return {
    ...base,
    positions: () => (positions ??= base.positions()),
    // the live port's (cached there until the portfolio changes or the day does)
    dailyPnl: () => base.dailyPnl(),
    position: (symbol, account) => {
      if (account !== undefined) return base.position(symbol, account);
      let qty = net.get(symbol);
      if (qty === undefined) {
        qty = sumDecimals((positions ??= base.positions()).filter((p) => p.symbol === symbol).map((p) => p.qty));
        net.set(symbol, qty);
      }
      return qty;
    },
    close: () => subscription.unsubscribe(),
  };
}
