/**
 * A failed run as the ranking and error.txt show it: the error's stable code and its message (a plain
 * Error's code when it has one, SWEEP_RUN_FAILED otherwise), and the error.txt text with the stack.
 */
import { inspect } from 'node:util';
import { describeError, isTradebotError } from '../../src/errors.ts';
import type { RunFailure } from './types.ts';

export function failureOf(error: unknown): RunFailure {
  if (isTradebotError(error)) return { code: error.code, message: error.message };
  const code: unknown = error instanceof Error ? (error as Error & { code?: unknown }).code : undefined;
  if (error instanceof Error && typeof code === 'string') return { code, message: error.message };
  return {
    code: 'SWEEP_RUN_FAILED',
    message: error instanceof Error ? describeError(error) : inspect(error, { depth: 4, breakLength: Infinity }),
  };
}

/** error.txt of a failed run: `CODE: message`, then the stack when there is one. */
export function errorText(failure: RunFailure, stack?: string): string {
  return `${failure.code}: ${failure.message}${stack === undefined ? '' : `\n\n${stack}`}\n`;
}
