/**
 * The backtest harness's error codes (stable, matched by tools and tests) and one constructor. Each
 * message says what to fix: a bad history line names its line number, a bad option names the flag or
 * config key.
 */
import { TradebotError, type ErrorKind } from '../src/errors.ts';

export const BacktestErrorCode = {
  /** The data file cannot be opened or read. */
  DATA_UNREADABLE: 'BACKTEST_DATA_UNREADABLE',
  /** Line 1 is not a valid history or recording header. */
  BAD_HEADER: 'BACKTEST_BAD_HEADER',
  /** A trade or event line does not decode. */
  BAD_LINE: 'BACKTEST_BAD_LINE',
  /** A record is older than the one before it (the tape must be in time order). */
  OUT_OF_ORDER: 'BACKTEST_OUT_OF_ORDER',
  /** A traded symbol has no instrument in the header. */
  UNKNOWN_SYMBOL: 'BACKTEST_UNKNOWN_SYMBOL',
  /** An option or a `backtest` config value is invalid. */
  BAD_OPTION: 'BACKTEST_BAD_OPTION',
  /** `history fetch` was asked to write over a file it did not start (use --force). */
  HISTORY_EXISTS: 'BACKTEST_HISTORY_EXISTS',
  /** The `<out>.state.json` of an interrupted fetch belongs to another request. */
  HISTORY_STATE_MISMATCH: 'BACKTEST_HISTORY_STATE_MISMATCH',
  /** The fetch was aborted (AbortSignal); the state file allows resuming. */
  HISTORY_ABORTED: 'BACKTEST_HISTORY_ABORTED',
  /** The config reaches no exchange to fetch from. */
  HISTORY_NO_SOURCE: 'BACKTEST_HISTORY_NO_SOURCE',
} as const;
export type BacktestErrorCode = (typeof BacktestErrorCode)[keyof typeof BacktestErrorCode];

export function backtestError(
  code: BacktestErrorCode,
  message: string,
  options: { kind?: ErrorKind; cause?: unknown; details?: Record<string, unknown> } = {},
): TradebotError {
  return new TradebotError(code, message, { kind: options.kind ?? 'validation', cause: options.cause, details: options.details });
}
