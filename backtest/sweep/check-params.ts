/**
 * Checks a sweep before any run starts: every grid name must be a param of the strategy (when its schema
 * is an object schema, whose keys are known), and every combination, merged over the base params, must
 * pass the strategy's params schema. All problems are reported at once, with the run they belong to, so a
 * typo in the grid fails in a second instead of in every run.
 */
import { ConfigError, type ConfigProblem } from '../../src/config/errors.ts';
import type { AnyStrategy } from '../../src/engine/strategy/define-strategy.ts';
import { validateParams } from '../../src/engine/strategy/loader.ts';
import type { Grid } from './grid.ts';
import type { ParamSet } from './types.ts';

const MAX_REPORTED = 20;

/** The param names of an object schema, or undefined when the schema is not an object. */
function paramNames(strategy: AnyStrategy): string[] | undefined {
  const shape = (strategy.params as { shape?: unknown }).shape;
  return typeof shape === 'object' && shape !== null ? Object.keys(shape) : undefined;
}

export function checkSweepParams(strategy: AnyStrategy, grid: Grid, runs: readonly ParamSet[], file = 'sweep grid'): void {
  const problems: ConfigProblem[] = [];
  const known = paramNames(strategy);
  if (known !== undefined) {
    for (const name of Object.keys(grid)) {
      if (!known.includes(name))
        problems.push({ path: name, message: `not a param of strategy ${strategy.name} (its params: ${known.join(', ')})` });
    }
  }
  const seen = new Set<string>();
  runs.forEach((params, i) => {
    try {
      validateParams(strategy, params);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      for (const p of error.problems) {
        const key = `${p.path}\u0000${p.message}`;
        if (seen.has(key)) continue;
        seen.add(key);
        problems.push({ path: p.path, message: `${p.message} (first in run ${i + 1}: ${JSON.stringify(params)})` });
      }
    }
  });
  if (problems.length === 0) return;
  const shown = problems.slice(0, MAX_REPORTED);
  if (problems.length > shown.length) shown.push({ path: '', message: `and ${problems.length - shown.length} more problems` });
  throw new ConfigError(shown, file, 'SWEEP_PARAMS_INVALID');
}
