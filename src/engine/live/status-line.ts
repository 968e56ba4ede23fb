/**
 * The one-line status a terminal shows during a live run: trading state, positions, PnL, open orders,
 * fills and refusals. Pure formatting; the runner decides when to draw it.
 */
import type { Decimal } from '../../domain/decimal.ts';

export interface StatusInput {
  elapsedSeconds: number;
  tradingState: string;
  /** What holds a restricted state (operator, feed, dailyLoss, strategyError); shown unless active. */
  tradingStateCause?: string;
  positions: Readonly<Record<string, string>>;
  pnl: Decimal;
  openOrders: number;
  orders: number;
  fills: number;
  refusals: number;
}

export function formatStatusLine(s: StatusInput): string {
  const positions = Object.entries(s.positions)
    .map(([symbol, qty]) => `${symbol} ${qty}`)
    .join(', ');
  return [
    `${s.elapsedSeconds.toFixed(0)}s`,
    s.tradingState === 'active' || s.tradingStateCause === undefined ? s.tradingState : `${s.tradingState} (${s.tradingStateCause})`,
    `pnl ${s.pnl.toFixed(2)}`,
    `pos [${positions === '' ? 'flat' : positions}]`,
    `open ${s.openOrders}`,
    `orders ${s.orders}`,
    `fills ${s.fills}`,
    `refused ${s.refusals}`,
  ].join(' | ');
}
