/**
 * Errors of the `tradebot/testing` harness: TradebotErrors with a stable `code` (prefix `TESTING_`), so a test
 * can match them by code with any runner. Messages say what went wrong and what to do.
 */
import { TradebotError } from '../errors.ts';

/** Every code a `tradebot/testing` helper throws with. */
export type TestingErrorCode =
  | 'TESTING_NO_SYMBOLS'
  | 'TESTING_UNKNOWN_SYMBOL'
  | 'TESTING_INVALID_LEVEL'
  | 'TESTING_NO_ORDER'
  | 'TESTING_AMBIGUOUS_ORDER'
  | 'TESTING_ORDER_NOT_OPEN'
  | 'TESTING_INVALID_FILL'
  | 'TESTING_NO_HELD_CALL'
  | 'TESTING_NOT_SETTLED'
  | 'TESTING_TIME_BACKWARDS'
  | 'TESTING_STOPPED'
  | 'TESTING_TIMEOUT'
  | 'TESTING_SIM_CONFIG';

/** A harness error: `code` is stable, `details` carries what the message names. */
export function testingError(code: TestingErrorCode, message: string, details?: Record<string, unknown>): TradebotError {
  return new TradebotError(code, message, { kind: 'validation', ...(details === undefined ? {} : { details }) });
}
