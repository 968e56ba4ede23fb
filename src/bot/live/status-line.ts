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

/** To cents (half-even), without a "-0.00" for a loss under half a cent. */
function cents(value: Decimal): string {
  const text = value.toFixed(2);
  return text === '-0.00' ? '0.00' : text;
}

export function formatStatusLine(s: StatusInput): string {
  const positions = Object.entries(s.positions)
    .map(([symbol, qty]) => `${symbol} ${qty}`)
    .join(', ');
  return [
    `${s.elapsedSeconds.toFixed(0)}s`,
    s.tradingState === 'active' || s.tradingStateCause === undefined ? s.tradingState : `${s.tradingState} (${s.tradingStateCause})`,
    `pnl ${cents(s.pnl)}`,
    `pos [${positions === '' ? 'flat' : positions}]`,
    `open ${s.openOrders}`,
    `orders ${s.orders}`,
    `fills ${s.fills}`,
    `refused ${s.refusals}`,
  ].join(' | ');
}
