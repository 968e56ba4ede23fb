/**
 * Errors the risk layer throws (misuse, never a refusal: a refused intent is data, see verdict.ts). Each is a
 * TradebotError with a stable code and a message that says what to fix.
 */
import { TradebotError } from '../../errors.ts';

export const RiskErrorCode = {
  /** A risk config that does not pass the schema (programmatic construction; YAML goes through the loader). */
  CONFIG_INVALID: 'RISK_CONFIG_INVALID',
  /** A trading state that is not active, reducing or halted (e.g. a mistyped operator command). */
  STATE_INVALID: 'RISK_STATE_INVALID',
} as const;

export type RiskErrorCode = (typeof RiskErrorCode)[keyof typeof RiskErrorCode];

export function riskConfigError(problems: readonly string[]): TradebotError {
  return new TradebotError(RiskErrorCode.CONFIG_INVALID, `invalid risk config: ${problems.join('; ')}`, {
    kind: 'config',
    details: { problems },
  });
}

export function riskStateError(got: unknown): TradebotError {
  return new TradebotError(
    RiskErrorCode.STATE_INVALID,
    `trading state must be one of active, reducing, halted; got ${JSON.stringify(got) ?? String(got)}`,
    { kind: 'validation', details: { got: String(got) } },
  );
}
