/**
 * Grid expansion: the cartesian product of the grid's value lists, in a stable order (the first param
 * varies slowest, like nested loops in file order), each combination merged over the base params.
 */
import { TradebotError } from '../../src/errors.ts';
import type { Grid } from './grid.ts';
import type { ParamSet } from './types.ts';

/** Refuse grids beyond this many runs unless the caller raises the limit. */
export const DEFAULT_MAX_RUNS = 10_000;

/** The number of combinations, without building them. */
export function gridSize(grid: Grid): number {
  return Object.values(grid).reduce((n, values) => n * values.length, 1);
}

export function expandGrid(grid: Grid, maxRuns = DEFAULT_MAX_RUNS): ParamSet[] {
  const size = gridSize(grid);
  if (size > maxRuns) {
    const shape = Object.entries(grid)
      .map(([name, values]) => `${name}: ${values.length}`)
      .join(' × ');
    throw new TradebotError(
      'SWEEP_GRID_TOO_LARGE',
      `the grid makes ${size} runs (${shape}), more than the limit of ${maxRuns}: trim the value lists`,
      { kind: 'config' },
    );
  }
  let combos: Record<string, unknown>[] = [{}];
  for (const [name, values] of Object.entries(grid)) {
    combos = combos.flatMap((combo) => values.map((value) => ({ ...combo, [name]: value })));
  }
  return combos;
}

/** `combo` over `base`: a swept param replaces the base value of the same name. */
export function mergeParams(base: ParamSet, combo: ParamSet): ParamSet {
  return { ...base, ...combo };
}
