/**
 * The jobs of one sweep: one per grid combination, in the grid's stable order (expand.ts), each with its
 * zero-padded id (`001`, at least three digits), its run folder under `runsDir` and the base params with the
 * combination merged over them.
 */
import path from 'node:path';
import { expandGrid, mergeParams } from './expand.ts';
import type { Grid } from './grid.ts';
import type { ParamSet, SweepJob, TapeWindow } from './types.ts';

export interface JobsOptions {
  readonly strategy: string;
  readonly data: string;
  readonly config?: string;
  readonly grid: Grid;
  readonly baseParams?: ParamSet;
  readonly maxRuns?: number;
  /** Every job replays this stretch of `data` (walk-forward's in-sample windows). */
  readonly window?: TapeWindow;
  /** Progress names the runs `<labelPrefix>/<id>` (walk-forward: `w02`). */
  readonly labelPrefix?: string;
}

export function sweepJobs(options: JobsOptions, runsDir: string): SweepJob[] {
  const combos = expandGrid(options.grid, options.maxRuns);
  const width = String(combos.length).length;
  return combos.map((combo, i) => {
    const id = String(i + 1).padStart(Math.max(3, width), '0');
    return {
      run: i + 1,
      id,
      ...(options.labelPrefix === undefined ? {} : { label: `${options.labelPrefix}/${id}` }),
      dir: path.join(runsDir, id),
      strategy: options.strategy,
      data: options.data,
      ...(options.config === undefined ? {} : { config: options.config }),
      ...(options.window === undefined ? {} : { window: options.window }),
      combo,
      params: mergeParams(options.baseParams ?? {}, combo),
    };
  });
}
