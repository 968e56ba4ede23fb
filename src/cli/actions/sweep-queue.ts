/**
 * `tradebot sweep --queue`: the coordinator's side set up: the queue URL, the inputs every job carries (the
 * strategy by name, or by path with its sha256; the tape's absolute path and sha256; the config file's text),
 * the out folder's sweep (a new one, or the same inputs started again: resumed; --force replaces another and
 * removes its jobs from Redis) and the connection to Redis (SWEEP_QUEUE_UNREACHABLE after --queue-timeout).
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { stableStringify } from '../../../backtest/results/stable-json.ts';
import type { Grid } from '../../../backtest/sweep/grid.ts';
import { openQueueExecutor, type QueueExecutor, type QueueInputs } from '../../../backtest/sweep/queue/coordinator.ts';
import { hashFile } from '../../../backtest/sweep/queue/file-hash.ts';
import { PAYLOAD_VERSION } from '../../../backtest/sweep/queue/payload.ts';
import { parseQueueUrl } from '../../../backtest/sweep/queue/queue-url.ts';
import { openSweepState, type SweepState } from '../../../backtest/sweep/queue/sweep-state.ts';
import type { ParamSet } from '../../../backtest/sweep/types.ts';
import { resolveStrategyPath } from '../../engine/strategy/loader.ts';
import { looksLikeStrategyPath } from '../../engine/strategy/strategy-path.ts';

export interface QueueSetupOptions {
  readonly queue: string;
  /** Seconds Redis may stay unreachable. */
  readonly timeoutSeconds: number;
  readonly strategy: string;
  readonly data: string;
  readonly configFile: string;
  readonly grid: Grid;
  readonly base: ParamSet;
  readonly out: string;
  readonly force: boolean;
  readonly walkForward?: string;
}

export interface QueueSetup {
  readonly executor: QueueExecutor;
  readonly state: SweepState;
  readonly queue: string;
  /** Removed from Redis: the jobs of the sweep --force replaced. */
  readonly discarded: number;
}

async function inputsOf(options: QueueSetupOptions): Promise<QueueInputs> {
  let strategy: QueueInputs['strategy'] = { spec: options.strategy };
  if (looksLikeStrategyPath(options.strategy)) {
    const file = resolveStrategyPath(options.strategy);
    strategy = { spec: options.strategy, file: { path: file, sha256: (await hashFile(file)).sha256 } };
  }
  return {
    strategy,
    data: await hashFile(options.data),
    config: { path: path.resolve(options.configFile), text: readFileSync(options.configFile, 'utf8') },
  };
}

/** What makes two sweeps the same sweep: a resumed one must run the very same jobs. */
function fingerprint(inputs: QueueInputs, options: QueueSetupOptions): string {
  const same = {
    v: PAYLOAD_VERSION,
    strategy: { spec: inputs.strategy.spec, sha256: inputs.strategy.file?.sha256 ?? null },
    data: inputs.data.sha256,
    config: inputs.config.text,
    grid: options.grid,
    base: options.base,
    walkForward: options.walkForward ?? null,
  };
  return createHash('sha256').update(stableStringify(same)).digest('hex');
}

export async function setUpQueue(options: QueueSetupOptions): Promise<QueueSetup> {
  const url = parseQueueUrl(options.queue);
  const inputs = await inputsOf(options);
  const state = await openSweepState(options.out, fingerprint(inputs, options), url.text, options.force);
  const executor = await openQueueExecutor({
    url,
    sweepId: state.sweepId,
    out: options.out,
    inputs,
    timeoutMs: Math.round(options.timeoutSeconds * 1000),
  });
  const discarded = state.replaced === undefined ? 0 : await executor.discardSweep(state.replaced);
  return { executor, state, queue: url.text, discarded };
}
