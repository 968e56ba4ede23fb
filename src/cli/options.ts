/**
 * Option parsers and defaults shared by the CLI's command declarations (commands/*.ts). Kept free of heavy
 * imports: every command's declaration loads at start, so `tradebot --help` stays fast; what a command does
 * lives in actions/*.ts and loads only when that command runs.
 */
import { existsSync } from 'node:fs';
import { TradebotError } from '../errors.ts';
import { packageFile } from '../package/paths.ts';

export const LOG_LEVELS: readonly string[] = ['trace', 'debug', 'info', 'warn', 'error'];

/** The config `run`, `sim` and `history fetch` read when none is given. */
export const DEFAULT_CONFIG = 'config/sim.yaml';

/** The config `backtest` and `sweep` read when none is given. */
export const DEFAULT_BACKTEST_CONFIG = 'config/backtest.yaml';

export const invalidOption = (message: string): TradebotError => new TradebotError('CLI_INVALID_OPTION', message, { kind: 'config' });

/** Seconds greater than 0 (`--duration`). */
export function parseSeconds(text: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new TradebotError('CLI_INVALID_DURATION', `--duration expects seconds greater than 0, got "${text}"`, { kind: 'config' });
  return value;
}

/**
 * The config file a command reads: the one given; the default (`config/sim.yaml`, `config/backtest.yaml`)
 * when the working folder has it, else tradebot's own copy, so the commands work in any folder.
 */
export function configFileOf(given: string): string {
  if (given !== DEFAULT_CONFIG && given !== DEFAULT_BACKTEST_CONFIG) return given;
  return existsSync(given) ? given : packageFile(given);
}
