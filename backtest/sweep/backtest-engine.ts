/**
 * The replay engine as the sweep uses it: `runBacktest` (backtest/run-backtest.ts) and the backtest config
 * loader (backtest/config.ts), loaded at run time and checked to have the functions the sweep calls. The
 * engine is built in parallel with the sweep; resolving it here, in one module, keeps the sweep compiling
 * and testable on its own (with a fake job) while the engine lands.
 */
import { TradebotError } from '../../src/errors.ts';
import type { BacktestResult } from '../report/backtest-result.ts';

/** The runBacktest options a sweep sets (`config` is what `loadBacktestConfig` returned). */
export interface SweepBacktestOptions {
  readonly data: string;
  readonly config: unknown;
  readonly strategy: string;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface BacktestEngine {
  runBacktest(options: SweepBacktestOptions): Promise<BacktestResult>;
  /** Loads and validates a backtest config file (throws a ConfigError listing its problems). */
  loadBacktestConfig(file: string): unknown;
}

const MODULES = {
  runBacktest: new URL('../run-backtest.ts', import.meta.url).href,
  config: new URL('../config.ts', import.meta.url).href,
};

async function importFunction(url: string, name: string): Promise<(...args: never[]) => unknown> {
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? error.message) : String(error);
    throw new TradebotError('SWEEP_NO_BACKTEST', `cannot load ${name} from ${new URL(url).pathname}: ${reason}`, { cause: error });
  }
  const fn = module[name];
  if (typeof fn !== 'function') throw new TradebotError('SWEEP_NO_BACKTEST', `${new URL(url).pathname} does not export a ${name} function`);
  return fn as (...args: never[]) => unknown;
}

let engine: Promise<BacktestEngine> | undefined;

/** The engine's functions (loaded once per thread), or SWEEP_NO_BACKTEST saying why they cannot load. */
export function loadBacktestEngine(): Promise<BacktestEngine> {
  engine ??= (async () => ({
    runBacktest: (await importFunction(MODULES.runBacktest, 'runBacktest')) as BacktestEngine['runBacktest'],
    loadBacktestConfig: (await importFunction(MODULES.config, 'loadBacktestConfig')) as BacktestEngine['loadBacktestConfig'],
  }))();
  engine.catch(() => {
    engine = undefined;
  });
  return engine;
}
