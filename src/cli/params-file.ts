/**
 * Reads a strategy params file (`--params <yaml>` of run, backtest and sweep): a YAML mapping of param names
 * to values, or a file whose only key `params` holds that mapping. `${ENV}` references are interpolated as
 * in config files; numbers stay exact (see config/yaml.ts). The params are validated later against the
 * plugin's schema, with problems named by this file and keys at the params' root.
 */
import { readFileSync } from 'node:fs';
import { ConfigError, type ConfigProblem } from '../config/index.ts';
import { interpolateEnv } from '../config/env.ts';
import { parseYaml } from '../config/yaml.ts';

export function readParamsFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError([{ path: '', message: `cannot read ${file}: ${(error as Error).message}` }], file, 'CONFIG_UNREADABLE');
  }
  const problems: ConfigProblem[] = [];
  const tree = interpolateEnv(parseYaml(text, problems), process.env, problems);
  if (problems.length > 0) throw new ConfigError(problems, file);
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) {
    throw new ConfigError([{ path: '', message: 'expected a mapping of param names to values (e.g. "halfSpread: \\"0.02\\"")' }], file);
  }
  const record = tree as Record<string, unknown>;
  const inner = record['params'];
  const wrapped = Object.keys(record).length === 1 && typeof inner === 'object' && inner !== null && !Array.isArray(inner);
  return wrapped ? (inner as Record<string, unknown>) : record;
}
