/**
 * Keeps the simulator's state file current: `loadState` restores a saved state into a fresh core at
 * start; `startStatePersister` captures the core every `intervalMs` and writes it atomically (one write at
 * a time; a capture due while a write is in flight waits for it), and `stop({ save: true })` writes a
 * last one after the servers closed (SIGINT/SIGTERM). A process killed with SIGKILL keeps the last
 * periodic write: it loses at most one interval of exchange activity (orders, fills and cancels of that
 * interval are undone on restart; clients reconcile through their order stream snapshot).
 */
import type { Logger } from 'pino';
import type { ExchangeCore } from '../exchange/exchange-core.ts';
import { captureCore, restoreCore, type CaptureLimits } from './core-state.ts';
import { readStateFile, writeStateFile } from './state-file.ts';

export interface StatePersister {
  /** Captures and writes now; resolves when the file is on disk. */
  save(): Promise<void>;
  /** Stops the timer; with `save`, writes a final state first. */
  stop(options: { save: boolean }): Promise<void>;
  /** Completed writes. */
  readonly writes: number;
}

/** Restores `file` into `core` when it exists; returns what was restored (for the log) or undefined. */
export async function loadState(
  core: ExchangeCore,
  file: string,
): Promise<{ savedAt: number; workingOrders: number; orders: number } | undefined> {
  const state = await readStateFile(file);
  if (state === undefined) return undefined;
  restoreCore(core, state);
  return { savedAt: state.savedAt, workingOrders: state.engine.orders.length, orders: state.orders.length };
}

export function startStatePersister(
  core: ExchangeCore,
  options: { file: string; intervalMs: number; logger: Logger; limits?: CaptureLimits },
): StatePersister {
  let writes = 0;
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;
  const save = (): Promise<void> => {
    const run = chain.then(async () => {
      // captured when its turn comes, so the file always holds the newest state
      const state = captureCore(core, core.clock.now(), options.limits);
      await writeStateFile(options.file, state);
      writes += 1;
    });
    chain = run.catch(() => undefined);
    return run;
  };
  let busy = false;
  const timer = setInterval(() => {
    if (busy || stopped) return;
    busy = true;
    save()
      .catch((error: unknown) => options.logger.error({ err: error }, 'writing the simulator state file failed'))
      .finally(() => {
        busy = false;
      });
  }, options.intervalMs);
  timer.unref();
  return {
    save,
    stop: async ({ save: final }) => {
      stopped = true;
      clearInterval(timer);
      if (final) await save();
      else await chain;
    },
    get writes() {
      return writes;
    },
  };
}
