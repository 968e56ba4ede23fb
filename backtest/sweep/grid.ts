/**
 * The sweep grid file: YAML mapping each param name to the list of values to try, e.g.
 *   halfSpread: [0.01, 0.02, 0.03]
 *   quoteQty: [5, 10]
 * Parsed with the config files' YAML rules (decimals such as 0.01 stay exact text), validated once, and
 * every problem reported with its key and the fix.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, type ConfigProblem } from '../../src/config/errors.ts';
import { parseYaml } from '../../src/config/yaml.ts';
import { TradebotError } from '../../src/errors.ts';

/** Param name -> the values to try, in file order. */
export type Grid = Readonly<Record<string, readonly unknown[]>>;

export function parseGrid(text: string, file = 'grid'): Grid {
  const problems: ConfigProblem[] = [];
  const tree = parseYaml(text, problems);
  if (problems.length === 0) {
    if (typeof tree !== 'object' || tree === null || Array.isArray(tree)) {
      problems.push({ path: '', message: 'expected a mapping of param name to a list of values, e.g. "halfSpread: [0.01, 0.02]"' });
    } else {
      const entries = Object.entries(tree as Record<string, unknown>);
      if (entries.length === 0) problems.push({ path: '', message: 'the grid is empty: give at least one param with a list of values' });
      for (const [name, values] of entries) {
        if (name.trim() === '')
          problems.push({
            path: '',
            message: `a mapping key is empty: name the param each list of values is for, e.g. "halfSpread: [0.01, 0.02]"`,
          });
        else if (!Array.isArray(values))
          problems.push({
            path: name,
            message: `expected a list of values, got ${JSON.stringify(values)} (write a single value as [${JSON.stringify(values)}])`,
          });
        else if (values.length === 0) problems.push({ path: name, message: 'the list of values is empty' });
      }
    }
  }
  if (problems.length > 0) throw new ConfigError(problems, file, 'SWEEP_GRID_INVALID');
  return tree as Grid;
}

export function loadGrid(file: string): Grid {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TradebotError(
      'SWEEP_GRID_UNREADABLE',
      `cannot read the grid file ${file}: ${error instanceof Error ? error.message : String(error)}`,
      { kind: 'config', cause: error },
    );
  }
  return parseGrid(text, file);
}
