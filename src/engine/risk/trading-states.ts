/**
 * The trading states' names and their check, on their own (no RxJS, no engine): what the CLI's `control`
 * command and the control endpoint validate against, loaded at every `tradebot` start. The state machine
 * that moves between them is trading-state.ts.
 */

export const TRADING_STATES = ['active', 'reducing', 'halted'] as const;
export type TradingState = (typeof TRADING_STATES)[number];

export function isTradingState(value: unknown): value is TradingState {
  return typeof value === 'string' && (TRADING_STATES as readonly string[]).includes(value);
}
